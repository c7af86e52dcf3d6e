/// Gathers violations as the checks find them, grouped by kind, entity and property, keeping a count and
/// the first few examples of each group, so that memory stays flat however many objects are wrong.
final class ViolationCollector {
    /// The most examples kept per group.
    static let exampleLimit = 5

    private struct Key: Hashable {
        var kind: ViolationKind
        var entity: String?
        var property: String?
    }

    private var order: [Key] = []
    private var counts: [Key: Int] = [:]
    private var examples: [Key: [ViolationExample]] = [:]
    private var skipped: [SkippedCheck] = []
    private var failures: [Failure] = []

    /// Records one violation; `detail` is only made for the examples kept.
    func add(
        _ kind: ViolationKind, entity: String?, property: String? = nil, primaryKey: Int64?,
        _ detail: @autoclosure () -> String
    ) {
        let key = Key(kind: kind, entity: entity, property: property)
        if counts[key] == nil { order.append(key) }
        counts[key, default: 0] += 1
        if examples[key, default: []].count < Self.exampleLimit {
            examples[key, default: []].append(ViolationExample(primaryKey: primaryKey, detail: detail()))
        }
    }

    /// Records a check that failed to run — an SQL error stopped it — as a ``ViolationKind/checkFailed``
    /// violation naming the check (`kind`) and the error: a store whose damage breaks a check must not pass.
    /// The same failure met again (each range of keys of one mapping fails alike) is counted once.
    func failed(_ kind: ViolationKind, entity: String?, property: String? = nil, _ error: any Error) {
        record(
            Failure(entity: entity, property: property, detail: "the \(kind.rawValue) check failed to run: \(error)"))
    }

    private struct Failure: Hashable {
        var entity: String?
        var property: String?
        var detail: String
    }

    private func record(_ failure: Failure) {
        guard !failures.contains(failure) else { return }
        failures.append(failure)
        add(.checkFailed, entity: failure.entity, property: failure.property, primaryKey: nil, failure.detail)
    }

    /// Records a check that was not performed.
    func skip(_ kind: ViolationKind, entity: String?, property: String? = nil, _ reason: String) {
        let check = SkippedCheck(kind: kind, entity: entity, property: property, reason: reason)
        if !skipped.contains(check) { skipped.append(check) }
    }

    /// Adds what `other` found after what this collector found, as if `other`'s checks had run after this
    /// collector's: groups keep their first-seen order, counts add up and the first examples are kept.
    func append(_ other: ViolationCollector) {
        for key in other.order where key.kind != .checkFailed {
            if counts[key] == nil { order.append(key) }
            counts[key, default: 0] += other.counts[key] ?? 0
            let room = Self.exampleLimit - (examples[key]?.count ?? 0)
            examples[key, default: []].append(contentsOf: (other.examples[key] ?? []).prefix(max(room, 0)))
        }
        for check in other.skipped where !skipped.contains(check) { skipped.append(check) }
        for failure in other.failures { record(failure) }
    }

    /// The result so far.
    var result: VerificationResult {
        VerificationResult(
            violations: order.map {
                ViolationGroup(
                    kind: $0.kind, entity: $0.entity, property: $0.property, count: counts[$0] ?? 0,
                    examples: examples[$0] ?? [])
            },
            notChecked: skipped)
    }
}
