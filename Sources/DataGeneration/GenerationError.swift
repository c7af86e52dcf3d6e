/// Why a dataset cannot be generated for a model version.
public struct GenerationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the entity or relationship.
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
