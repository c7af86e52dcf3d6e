import Crypto
import Foundation

/// The 32-byte fingerprint of an entity that Core Data stores in `NSStoreModelVersionHashes`.
///
/// Computed bit for bit as Core Data computes it (see `shared/formats/versionhash.md`), so that a store
/// written by Core Data is recognised, and its model version found, by exact equality.
public struct VersionHash: Sendable, Hashable, CustomStringConvertible, Comparable {
    /// The 32 bytes.
    public let bytes: [UInt8]

    /// Wraps 32 bytes read from a store.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// Parses 64 hexadecimal digits.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    fileprivate init<D: Digest>(digest: D) {
        self.bytes = Array(digest)
    }

    /// The 64 lower-case hexadecimal digits.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The 64 lower-case hexadecimal digits.
    public var description: String { hex }

    /// Byte-wise order, so that hashes sort the same everywhere.
    public static func < (lhs: VersionHash, rhs: VersionHash) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Core Data's version-hash rules. Inputs and order follow `shared/formats/versionhash.md`.
enum VersionHashing {
    static func hash(of attribute: Attribute) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(
            data: propertyBase(
                name: attribute.name,
                isOptional: attribute.isOptional,
                isTransient: attribute.isTransient,
                versionHashModifier: attribute.versionHashModifier
            ))
        hasher.update(littleEndian: attribute.type.coreDataCode)
        if attribute.allowsExternalBinaryDataStorage { hasher.update(data: [0x01]) }
        if attribute.preserveAfterDeletion { hasher.update(data: [0x01]) }
        return Array(hasher.finalize())
    }

    static func hash(of relationship: Relationship, in entity: String) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(
            data: propertyBase(
                name: relationship.name,
                isOptional: relationship.isOptional,
                isTransient: relationship.isTransient,
                versionHashModifier: relationship.versionHashModifier
            ))
        hasher.update(data: Array(relationship.destination.utf8))
        if let inverse = relationship.inverse,
            !(inverse == relationship.name && relationship.destination == entity)
        {
            hasher.update(data: Array(inverse.utf8))
        }
        hasher.update(littleEndian: UInt32(truncatingIfNeeded: relationship.maxCount))
        hasher.update(littleEndian: UInt32(truncatingIfNeeded: relationship.minCount))
        if relationship.isOrdered { hasher.update(data: [0x01, 0x00]) }
        return Array(hasher.finalize())
    }

    /// The hash of `entity`, given the already computed hash of its parent and all its stored properties.
    static func hash(
        of entity: Entity,
        parentHash: VersionHash?,
        attributes: [Attribute],
        relationships: [Relationship]
    ) -> VersionHash {
        var properties: [(name: String, hash: [UInt8])] = []
        for attribute in attributes where !attribute.isTransient {
            properties.append((attribute.name, hash(of: attribute)))
        }
        for relationship in relationships where !relationship.isTransient {
            properties.append((relationship.name, hash(of: relationship, in: entity.name)))
        }
        properties.sort { $0.name.utf16.lexicographicallyPrecedes($1.name.utf16) }

        var hasher = SHA256()
        hasher.update(data: Array(entity.name.utf8))
        hasher.update(data: [entity.isAbstract ? 0x01 : 0x00])
        if let parentHash { hasher.update(data: parentHash.bytes) }
        for property in properties { hasher.update(data: property.hash) }
        if let modifier = entity.versionHashModifier { hasher.update(data: Array(modifier.utf8)) }
        let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }
            .sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
        for constraint in constraints { hasher.update(data: Array(constraint.utf8)) }
        return VersionHash(digest: hasher.finalize())
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over each entity's name and hash, in order of name.
    static func digest(of hashes: [String: VersionHash]) -> String {
        var hasher = SHA512()
        for name in hashes.keys.sorted(by: { $0.utf16.lexicographicallyPrecedes($1.utf16) }) {
            hasher.update(data: Array(name.utf8))
            hasher.update(data: hashes[name]!.bytes)
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    private static func propertyBase(
        name: String,
        isOptional: Bool,
        isTransient: Bool,
        versionHashModifier: String?
    ) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Array(name.utf8))
        let flags: UInt16 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0)
        hasher.update(littleEndian: flags)
        if let versionHashModifier { hasher.update(data: Array(versionHashModifier.utf8)) }
        return Array(hasher.finalize())
    }
}

extension HashFunction {
    fileprivate mutating func update<T: FixedWidthInteger>(littleEndian value: T) {
        withUnsafeBytes(of: value.littleEndian) { update(bufferPointer: $0) }
    }
}
