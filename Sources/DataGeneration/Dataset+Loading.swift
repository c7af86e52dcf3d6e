import Foundation
import Yams

extension Dataset {
    /// Reads a dataset file (YAML, or JSON, which YAML reads too).
    ///
    /// - Throws: ``GenerationError`` naming the file and the key path of what is wrong.
    public static func load(path: String) throws(GenerationError) -> Dataset {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw GenerationError("\(path): cannot read the dataset: \(error.localizedDescription)")
        }
        do {
            return try YAMLDecoder().decode(Dataset.self, from: text)
        } catch let error as DecodingError {
            throw GenerationError("\(path): \(describe(error))")
        } catch {
            throw GenerationError("\(path): \(error)")
        }
    }

    /// A decoding error as one line: the path of keys and what was wrong.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let at = path(context.codingPath)
            return (at.isEmpty ? "" : "\(at): ") + context.debugDescription
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): required key is missing"
        @unknown default:
            return "\(error)"
        }
    }
}
