/// Short descriptions that a failed `#expect` or `XCTAssert` prints.
extension ModelCheck: CustomStringConvertible {
    /// `check of <model> to <current>: e errors, w warnings; n steps, f failed`, then every finding, one per line.
    public var description: String {
        let errorCount = errors.count
        let warnings = findings.count - errorCount
        let failed = steps.filter { $0.outcome != .passed }.count
        let head =
            "check of \(model) to \(current): \(errorCount) error\(errorCount == 1 ? "" : "s"), "
            + "\(warnings) warning\(warnings == 1 ? "" : "s"); \(steps.count) step\(steps.count == 1 ? "" : "s"), "
            + "\(failed) not passed"
        return ([head] + findings.map { "  \($0)" }).joined(separator: "\n")
    }
}

extension Finding: CustomStringConvertible {
    /// `error needsValue (V2 → V3, Post.color): the message`.
    public var description: String {
        let place = [steps, subject].filter { !$0.isEmpty }.joined(separator: ", ")
        return "\(severity.rawValue) \(code)\(place.isEmpty ? "" : " (\(place))"): \(message)"
    }
}
