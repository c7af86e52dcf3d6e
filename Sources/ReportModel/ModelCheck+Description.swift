/// Short descriptions that a failed `#expect` or `XCTAssert` prints.
extension ModelCheck: CustomStringConvertible {
    /// `check of <model> to <current>: e errors, w warnings[, n notes]; n steps, f failed`, then every finding,
    /// one per line.
    public var description: String {
        let failed = steps.filter { $0.outcome != .passed }.count
        let head =
            "check of \(model) to \(current): \(findingCounts); \(steps.count) step\(steps.count == 1 ? "" : "s"), "
            + "\(failed) not passed"
        return ([head] + findings.map { "  \($0)" }).joined(separator: "\n")
    }

    /// `1 error, 2 warnings`, with `, 3 notes` when there are notes.
    public var findingCounts: String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        return [count(errors.count, "error"), count(warnings.count, "warning")].joined(separator: ", ")
            + (notes.isEmpty ? "" : ", " + count(notes.count, "note"))
    }
}

extension Finding: CustomStringConvertible {
    /// `error needsValue (V2 → V3, Post.color): the message`.
    public var description: String {
        let place = [steps, subject].filter { !$0.isEmpty }.joined(separator: ", ")
        return "\(severity.rawValue) \(code)\(place.isEmpty ? "" : " (\(place))"): \(message)"
    }
}
