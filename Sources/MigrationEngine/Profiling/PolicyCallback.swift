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

/// The calls and time of each policy callback in the segment under way: a lane per callback, added to in place
/// (a callback is timed once per object, so adding must cost next to nothing: no search by name, no allocation).
/// The lanes are held inline, not on the heap, so that the profiler can keep a segment's tally as it ends without
/// allocating, and turn it into ``PolicyCallbackTime``s once the migration is done.
struct PolicyCallbackTally: Sendable {
    private var calls = SIMD8<Int>()
    private var nanoseconds = SIMD8<UInt64>()

    /// Adds one call of `callback` that took `nanoseconds`.
    mutating func add(_ callback: PolicyCallback, nanoseconds elapsed: UInt64) {
        calls[callback.rawValue] += 1
        nanoseconds[callback.rawValue] &+= elapsed
    }

    /// Forgets every call, for the next segment.
    mutating func reset() {
        calls = SIMD8()
        nanoseconds = SIMD8()
    }

    /// Whether no callback was called.
    var isEmpty: Bool { calls == SIMD8() }

    /// The callbacks called, by name.
    var times: [PolicyCallbackTime] {
        PolicyCallback.allCases.filter { calls[$0.rawValue] > 0 }.map { callback in
            PolicyCallbackTime(
                callback: callback.name, calls: calls[callback.rawValue],
                seconds: Double(nanoseconds[callback.rawValue]) * 1e-9)
        }.sorted { $0.callback < $1.callback }
    }
}
