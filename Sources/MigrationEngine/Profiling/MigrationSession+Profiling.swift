import Foundation
import Instrumentation
import MappingModel
import ObjectModel

extension MigrationSession {
    /// Runs `body` as one segment of the profile — `plan`'s part of `stage` of pass `pass`, or the stage's `work`
    /// that belongs to no mapping —, or just runs it when the migration is not profiled.
    func profiled<T>(
        pass: Int, _ stage: MigrationProgress.Stage, _ plan: CompiledEntityMappingPlan?, work: String? = nil,
        hint: String? = nil, _ body: () throws -> T
    ) throws -> T {
        guard let profiler, let start = beginSegment() else { return try body() }
        let result: T
        do {
            result = try body()
        } catch {
            profiler.abandon(start)
            throw error
        }
        endSegment(start, pass: pass, stage, plan, work: work, hint: hint)
        return result
    }

    /// The start of a segment, when the migration is profiled.
    func beginSegment() -> MigrationProfiler.Start? {
        callbackTimes = [:]
        return profiler?.begin(profiledWork)
    }

    /// Records the segment begun at `start` (nothing when nil: the migration is not profiled).
    func endSegment(
        _ start: MigrationProfiler.Start?, pass: Int, _ stage: MigrationProgress.Stage,
        _ plan: CompiledEntityMappingPlan? = nil, work: String? = nil, hint: String? = nil
    ) {
        guard let profiler, let start else { return }
        let callbacks = callbackTimes.values.sorted { $0.callback < $1.callback }
        let place = MigrationProfiler.Place(
            pass: pass + 1, stage: stage.rawValue, mapping: plan?.mapping.name, work: work)
        profiler.end(
            start, at: place, work: profiledWork, callbacks: callbacks,
            hint: hint ?? plan.flatMap { self.hint(for: $0, stage: stage, callbacks: callbacks) })
    }

    /// Runs the policy callback `callback` of `plan`, timing it when the migration is profiled and the policy is
    /// a custom one (the default policy's callbacks are the engine's own work, not a callback's).
    func timedCallback<T>(_ callback: String, of plan: CompiledEntityMappingPlan, _ body: () throws -> T) throws -> T {
        guard profiler != nil, !plan.hasDefaultPolicy else { return try body() }
        let start = ContinuousClock.now
        defer {
            let seconds = (ContinuousClock.now - start).seconds
            callbackTimes[callback, default: PolicyCallbackTime(callback: callback, calls: 0, seconds: 0)].calls += 1
            callbackTimes[callback]?.seconds += seconds
        }
        return try body()
    }

    private var profiledWork: MigrationProfiler.Work {
        MigrationProfiler.Work(rows: cursor.rowsRead, objects: tally.objectsCreated, edges: tally.edgesWritten)
    }

    /// Why `plan`'s part of `stage` costs what it does, where the engine knows: its policy's callbacks, an
    /// expression that walks a to-many relationship for every object, or rows made one by one where streaming
    /// storage could have made them in SQL.
    private func hint(
        for plan: CompiledEntityMappingPlan, stage: MigrationProgress.Stage, callbacks: [PolicyCallbackTime]
    ) -> String? {
        if let busiest = callbacks.max(by: { $0.seconds < $1.seconds }), busiest.seconds > 0 {
            let policy = plan.mapping.policy ?? "its policy"
            return "policy \(policy): \(busiest.callback) called \(busiest.calls) times"
        }
        switch stage {
        case .createInstances:
            if let (property, path) = toManyKeyPath(in: plan) {
                return "to-many key path \(path) evaluated per object for \(property)"
            }
            if options.storage == .streaming, options.rendersRowsInSQL, plan.mapping.kind != .remove,
                !tally.mappingsRunInSQL.contains(plan.mapping.name)
            {
                return "made row by row: " + (plan.hasDefaultPolicy ? "an expression SQL cannot compute" : "a policy")
            }
            return nil
        case .createRelationships:
            guard let (property, path) = toManyKeyPath(in: plan, relationships: true) else { return nil }
            return "to-many key path \(path) evaluated per object for \(property)"
        case .save, .validate:
            return nil
        }
    }

    /// The first property of `plan` whose expression walks a to-many relationship of the source entity
    /// (`$source.books.@count`, `$source.books.title`), and that key path.
    private func toManyKeyPath(
        in plan: CompiledEntityMappingPlan, relationships: Bool = false
    ) -> (property: String, path: String)? {
        guard let entity = plan.mapping.sourceEntity else { return nil }
        let toMany = sourceVersion.relationships(of: entity).filter(\.isToMany).map(\.name)
        let expressions =
            relationships
            ? plan.relationships.map { ($0.name, $0.expression) } : plan.attributes.map { ($0.name, $0.expression) }
        for (property, expression) in expressions {
            for name in toMany {
                guard let range = expression.text.range(of: "$source.\(name).") else { continue }
                let rest = expression.text[range.upperBound...].prefix {
                    $0.isLetter || $0.isNumber || "_@.".contains($0)
                }
                return (property, "$source.\(name).\(rest)")
            }
        }
        return nil
    }
}
