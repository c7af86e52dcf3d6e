public import Foundation
public import ReportModel

/// `report.json`: a ``Report`` as JSON with sorted keys, pretty printed, so that the same report always gives
/// the same bytes and two reports diff line by line. An optional figure that is unavailable (nil), such as the
/// heap of a process that does not run on jemalloc, is left out of the JSON rather than written as 0.
public enum ReportJSON {
    /// The report as JSON, ending with a newline.
    public static func encode(_ report: Report) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(report) + Data("\n".utf8)
    }

    /// Reads a report, refusing one whose schema version this module does not know.
    ///
    /// - Throws: ``ReportFileError`` when the data is not a report of a known schema version.
    public static func decode(from data: Data) throws -> Report {
        let decoder = JSONDecoder()
        let version: Int
        do {
            version = try decoder.decode(SchemaVersion.self, from: data).schemaVersion
        } catch {
            throw ReportFileError.notAReport(error)
        }
        guard Report.readableSchemaVersions.contains(version) else {
            throw ReportFileError.unsupportedSchemaVersion(version)
        }
        do {
            return try decoder.decode(Report.self, from: data)
        } catch {
            throw ReportFileError.notAReport(error)
        }
    }

    /// The one field read before the rest, so that a newer schema is refused, not misread.
    private struct SchemaVersion: Decodable {
        let schemaVersion: Int
    }
}

/// A report file that cannot be read.
public struct ReportFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The file's schema version is not one of ``Report/readableSchemaVersions``.
        case unsupportedSchemaVersion
        /// The file is not JSON, or not a report.
        case notAReport
    }

    /// What went wrong.
    public let code: Code
    /// What went wrong and what to do, in one line.
    public let description: String

    static func unsupportedSchemaVersion(_ version: Int) -> ReportFileError {
        ReportFileError(
            code: .unsupportedSchemaVersion,
            description: "the report has schema version \(version), but this migration-bench reads only versions "
                + "\(Report.readableSchemaVersions.lowerBound) to \(Report.readableSchemaVersions.upperBound); use the "
                + "migration-bench that wrote it, or run the baseline again"
        )
    }

    static func notAReport(_ underlying: any Error) -> ReportFileError {
        ReportFileError(
            code: .notAReport, description: "the file is not a MigrationBench report (\(briefly(underlying)))")
    }

    /// A decoding error in a few words, naming the key path: not the decoder's whole description.
    private static func briefly(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: ["."])
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: return "no '\(path(context.codingPath + [key]))'"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "'\(path(context.codingPath))' has the wrong type"
        case .dataCorrupted(let context)?:
            return context.codingPath.isEmpty ? "not valid JSON" : "'\(path(context.codingPath))' is malformed"
        default: return "unreadable"
        }
    }
}
