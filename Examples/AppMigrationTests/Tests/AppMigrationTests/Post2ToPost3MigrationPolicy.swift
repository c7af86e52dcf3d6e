import Foundation
import MigrationTesting

/// The app's `Post2ToPost3MigrationPolicy` (an `NSEntityMigrationPolicy` subclass named by `Migration2to3`),
/// ported to Swift: each post as its mapping says, and one `Color` per post that has a `hexColor`, holding it in
/// `hex`, with a new `colorID`, linked by `Post.color`.
final class Post2ToPost3MigrationPolicy: EntityMigrationPolicy {
    /// What the policy makes, for the verifier, which never runs it: the post as mapped, and one Color per post
    /// with a source `hexColor`.
    static let declaration = PolicyDeclaration(makes: [
        .onePerObject("Color", through: "color", from: "hexColor", into: "hex", newIdentifier: "colorID")
    ])

    func createDestinationInstances(for source: ObjectID, mapping: EntityMapping, in session: MigrationSession) throws {
        let post = try session.createDestinationInstance(for: source, mapping: mapping)
        let hex = try session.sourceValue("hexColor")
        guard !hex.isNull else { return }
        let color = try session.createDestinationInstance(entity: "Color")
        try session.setValue(.string(session.makeUUID().uuidString), forKey: "colorID", of: color)
        try session.setValue(hex, forKey: "hex", of: color)
        try session.setValue(.object(color), forKey: "color", of: post)
    }
}
