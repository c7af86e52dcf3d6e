package import Foundation

/// The bounds on every input, in one place: the README's table of limits lists these. Past a bound an input
/// is refused with an error naming the file, line and field, before any work starts, so that no input can make
/// a command crash, exhaust memory or run until it is killed.
package enum InputLimits {
    /// The largest model, mapping, scenario, dataset or report file, and an Xcode model's `contents`, in bytes.
    package static let fileBytes = 64 << 20
    /// The longest value expression, in characters.
    package static let expressionLength = 10_000
    /// The deepest nesting of a value expression: parentheses, calls, operators and their operands.
    package static let expressionDepth = 100
    /// The largest store size (`--size`, `--sizes`, a scenario's sizes).
    package static let size = 100_000_000
    /// The most objects of one entity a generated store may get (size × the dataset's multiple).
    package static let objectsPerEntity = 1_000_000_000
    /// The largest per-entity multiple of a dataset.
    package static let objectMultiple = 1_000.0
    /// The most repetitions of a measurement.
    package static let repetitions = 100
    /// The most sizes one list may hold.
    package static let sizesPerList = 100
    /// The largest count in a dataset's relationship range (destination objects per object).
    package static let fanOut = 100_000
    /// The longest generated string (characters) or binary value (bytes).
    package static let valueLength = 1_000_000
    /// The largest `distinct` of a dataset attribute.
    package static let distinctValues = 1_000_000_000
    /// The deepest nesting of elements in an Xcode model's `contents` (Xcode writes 5: model, entity,
    /// attribute, userInfo, entry).
    package static let xmlDepth = 32
    /// The largest primary key (`Z_PK`) a migration accepts: the association tables index objects by key.
    package static let primaryKey = Int64(Int32.max)

    /// The bytes of the input file at `path`, refused past ``fileBytes`` before it is read.
    ///
    /// - Throws: the reason, without the path (each loader wraps it in its own error, which names the file).
    package static func read(_ path: String) throws(InputFileError) -> Data {
        let size: Int
        do {
            // The file a symbolic link points at is the input.
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            let attributes = try FileManager.default.attributesOfItem(atPath: resolved)
            size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            switch attributes[.type] as? FileAttributeType {
            case .typeRegular?: break
            case .typeDirectory?: throw InputFileError(message: "a folder, not a file")
            default: throw InputFileError(message: "not a regular file (a device, pipe or socket)")
            }
        } catch let error as InputFileError {
            throw error
        } catch {
            throw InputFileError(message: "cannot read the file (\(describe(error)))")
        }
        guard size <= fileBytes else {
            throw InputFileError(message: "the file has \(size) bytes; the limit is \(fileBytes)")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw InputFileError(message: "cannot read the file (\(describe(error)))")
        }
    }

    /// The text of the UTF-8 input file at `path`, refused past ``fileBytes``.
    package static func readText(_ path: String) throws(InputFileError) -> String {
        let data = try read(path)
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputFileError(message: "cannot read the file as UTF-8 text")
        }
        return text
    }

    /// A framework error in a few words: its POSIX reason when it has one, not its whole description.
    package static func describe(_ error: any Error) -> String {
        let error = error as NSError
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        if error.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(error.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if error.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: error.code) {
            case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
            case .fileReadNoPermission: return "permission denied"
            default: break
            }
        }
        let text = error.localizedDescription
        return text.count <= 120 ? text : String(text.prefix(119)) + "…"
    }
}

/// Why an input file cannot be read: too large, missing, unreadable or not UTF-8.
package struct InputFileError: Error {
    /// The reason, without the path.
    package let message: String
}
