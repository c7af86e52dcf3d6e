/// Short descriptions that a failed `#expect` or `XCTAssert` prints: the first violation groups, each with its
/// kind, entity and property, count and first examples by primary key.
extension VerificationResult: CustomStringConvertible {
    /// The groups a description lists before it says how many more there are.
    static let describedGroups = 5

    /// `passed`, or `failed: n violations in g groups`, then the first groups one per line; with the number of
    /// checks not made.
    public var description: String {
        let skipped =
            notChecked.isEmpty ? "" : "; \(notChecked.count) check\(notChecked.count == 1 ? "" : "s") not made"
        guard !passed else { return "passed" + skipped }
        let total = violations.reduce(0) { $0 + $1.count }
        var lines = [
            "failed: \(total) violation\(total == 1 ? "" : "s") in \(violations.count) "
                + "group\(violations.count == 1 ? "" : "s")\(skipped)"
        ]
        lines += violations.prefix(Self.describedGroups).map { "  \($0)" }
        if violations.count > Self.describedGroups {
            lines.append("  and \(violations.count - Self.describedGroups) more groups")
        }
        return lines.joined(separator: "\n")
    }
}

extension ViolationGroup: CustomStringConvertible {
    /// The examples a description shows before it says how many more there are.
    static let describedExamples = 2

    /// `attributeValue Color.hex: 3 (Z_PK 1: expected "#ff0000" …; Z_PK 2: …; and 1 more)`.
    public var description: String {
        var shown = examples.prefix(Self.describedExamples).map { example in
            (example.primaryKey.map { "Z_PK \($0): " } ?? "") + example.detail
        }
        if count > shown.count { shown.append("and \(count - shown.count) more") }
        let subject = [entity, property].compactMap { $0 }.joined(separator: ".")
        return "\(kind.rawValue)\(subject.isEmpty ? "" : " " + subject): \(count) (\(shown.joined(separator: "; ")))"
    }
}

extension SkippedCheck: CustomStringConvertible {
    /// `missingObject Post: not checked: the reason`.
    public var description: String {
        let subject = [entity, property].compactMap { $0 }.joined(separator: ".")
        return "\(kind.rawValue)\(subject.isEmpty ? "" : " " + subject): not checked: \(reason)"
    }
}
