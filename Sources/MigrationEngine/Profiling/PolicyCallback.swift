/// A custom policy's callbacks, as Core Data names them (`NSEntityMigrationPolicy`), in the order it calls them.
enum PolicyCallback: Int, CaseIterable, Sendable {
    case begin
    case createDestinationInstances
    case endInstanceCreation
    case createRelationships
    case endRelationshipCreation
    case performCustomValidation
    case end

    /// The callback's name, such as `createDestinationInstances` (spelled out: `String(describing:)` would look
    /// the enum's conformances up through the runtime, about 450,000 instructions the first time).
    var name: String {
        switch self {
        case .begin: "begin"
        case .createDestinationInstances: "createDestinationInstances"
        case .endInstanceCreation: "endInstanceCreation"
        case .createRelationships: "createRelationships"
        case .endRelationshipCreation: "endRelationshipCreation"
        case .performCustomValidation: "performCustomValidation"
        case .end: "end"
        }
    }
}

/// The calls and time of each policy callback in the segment under way: a slot per callback, added to in place
/// (a callback is timed once per object, so adding must cost next to nothing: no search by name, no allocation).
struct PolicyCallbackTally {
    private var calls = [Int](repeating: 0, count: PolicyCallback.allCases.count)
    private var nanoseconds = [UInt64](repeating: 0, count: PolicyCallback.allCases.count)

    /// Adds one call of `callback` that took `nanoseconds`.
    mutating func add(_ callback: PolicyCallback, nanoseconds elapsed: UInt64) {
        calls[callback.rawValue] += 1
        nanoseconds[callback.rawValue] &+= elapsed
    }

    /// Forgets every call, for the next segment.
    mutating func reset() {
        for index in calls.indices {
            calls[index] = 0
            nanoseconds[index] = 0
        }
    }

    /// The callbacks called, by name.
    var times: [PolicyCallbackTime] {
        PolicyCallback.allCases.filter { calls[$0.rawValue] > 0 }.map { callback in
            PolicyCallbackTime(
                callback: callback.name, calls: calls[callback.rawValue],
                seconds: Double(nanoseconds[callback.rawValue]) * 1e-9)
        }.sorted { $0.callback < $1.callback }
    }
}
