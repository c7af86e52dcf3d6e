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
        callbackTimes.reset()
        return profiler?.begin(profiledWork)
    }

    /// Closes the segment begun at `start` without recording it (nothing when nil): the work in it failed.
    func abandonSegment(_ start: MigrationProfiler.Start?) {
        if let profiler, let start { profiler.abandon(start) }
    }

    /// Records the segment begun at `start` (nothing when nil: the migration is not profiled).
    func endSegment(
        _ start: MigrationProfiler.Start?, pass: Int, _ stage: MigrationProgress.Stage,
        _ plan: CompiledEntityMappingPlan? = nil, work: String? = nil, hint: String? = nil
    ) {
        guard let profiler, let start else { return }
        let place = MigrationProfiler.Place(
            pass: pass + 1, stage: stage.rawValue, mapping: plan?.mapping.name, work: work)
        // The hint is worked out after the segment's end, as the profiler's own work.
        profiler.end(
            start, at: place, work: profiledWork, callbacks: callbackTimes, policy: plan?.mapping.policy,
            hint: { hint ?? plan.flatMap { self.hint(for: $0, stage: stage) } })
    }

    /// Runs the policy callback `callback` of `plan`, timing it when the migration is profiled and the policy is
    /// a custom one (the default policy's callbacks are the engine's own work, not a callback's).
    func timedCallback<T>(
        _ callback: PolicyCallback, of plan: CompiledEntityMappingPlan, _ body: () throws -> T
    ) throws -> T {
        guard profiler != nil, !plan.hasDefaultPolicy else { return try body() }
        // Called once per object: the clock read as integer nanoseconds (ContinuousClock's instants cost 128-bit
        // arithmetic to subtract and turn into seconds), added to the callback's slot.
        let start = MonotonicClock.nanoseconds()
        defer { callbackTimes.add(callback, nanoseconds: MonotonicClock.nanoseconds() &- start) }
        return try body()
    }

    private var profiledWork: MigrationProfiler.Work {
        MigrationProfiler.Work(rows: cursor.rowsRead, objects: tally.objectsCreated, edges: tally.edgesWritten)
    }

    /// Works out, when the migration is profiled, the hints that the mapping models alone decide (an expression
    /// that walks a to-many key path), once as the session opens: worked out as each part ends, their strings
    /// and arrays were allocations between parts, and each made the profiler's next allocation read refresh
    /// jemalloc's statistics (about 450,000 instructions).
    func prepareHints() {
        guard profiler != nil else { return }
        for plan in passes.flatMap(\.mappings) {
            let name = plan.mapping.name
            profileHints.createInstances[name] = toManyKeyPath(in: plan).map { property, path in
                "to-many key path \(path) evaluated per object for \(property)"
            }
            profileHints.createRelationships[name] = toManyKeyPath(in: plan, relationships: true).map {
                property, path in "to-many key path \(path) evaluated per object for \(property)"
            }
            if !plan.hasDefaultPolicy {
                profileHints.runAsSQL[name] =
                    "policy \(plan.mapping.policy ?? "its policy") run as SQL: one INSERT … SELECT per range of "
                    + "source keys, no callback per object"
            }
        }
    }

    /// Why `plan`'s part of `stage` costs what it does, where the engine knows (where it does not, the profiler
    /// hints a part whose policy callbacks were timed by its busiest callback): an expression that walks a to-many
    /// relationship for every object, or rows made one by one where streaming storage could have made them in SQL.
    private func hint(for plan: CompiledEntityMappingPlan, stage: MigrationProgress.Stage) -> String? {
        switch stage {
        case .createInstances:
            if let hint = profileHints.createInstances[plan.mapping.name] { return hint }
            if !plan.hasDefaultPolicy, tally.mappingsRunInSQL.contains(plan.mapping.name) {
                return profileHints.runAsSQL[plan.mapping.name]
            }
            if options.storage == .streaming, options.rendersRowsInSQL, plan.mapping.kind != .remove,
                !tally.mappingsRunInSQL.contains(plan.mapping.name)
            {
                return plan.hasDefaultPolicy
                    ? "made row by row: an expression SQL cannot compute" : "made row by row: a policy"
            }
            return nil
        case .createRelationships:
            return profileHints.createRelationships[plan.mapping.name] ?? evaluatedRelationships(of: plan)
        case .save, .validate:
            return nil
        }
    }

    /// The relationship mappings of `plan` that stage 2 evaluates object by object (those stage 1 did not
    /// write), as a hint; nil when there are none or no source objects.
    private func evaluatedRelationships(of plan: CompiledEntityMappingPlan) -> String? {
        guard plan.mapping.sourceEntity.map({ cursor.objectCounts[$0] ?? 0 }) ?? 0 > 0 else { return nil }
        // Stage 2 has asked for these already: the runtimes keep them.
        let doneInStageOne = Set(((try? runtimes.stageOneForeignKeys(for: plan)) ?? []).map(\.name))
        let evaluated = plan.relationships.filter { $0.writesEdges && !doneInStageOne.contains($0.name) }.map(\.name)
        guard !evaluated.isEmpty else { return nil }
        return "relationship mappings evaluated object by object: " + evaluated.joined(separator: ", ")
    }

    /// The first property of `plan` whose expression walks a to-many relationship for each object
    /// (`$source.books.@count`, `$source.author.books.@count`), and that key path.
    private func toManyKeyPath(
        in plan: CompiledEntityMappingPlan, relationships: Bool = false
    ) -> (property: String, path: String)? {
        guard let entity = plan.mapping.sourceEntity else { return nil }
        let expressions =
            relationships
            ? plan.relationships.map { ($0.name, $0.expression) } : plan.attributes.map { ($0.name, $0.expression) }
        for (property, expression) in expressions {
            var rest = Substring(expression.text)
            while let range = rest.range(of: "$source.") {
                let path = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || "_@.".contains($0) }
                rest = rest[range.upperBound...]
                // Walk the key path through the source model: a to-many relationship followed by more keys is a
                // walk over every related object (a relationship mapping that hands `$source.books` on is not).
                var current = entity
                let keys = path.split(separator: ".").map(String.init)
                for (index, key) in keys.enumerated() {
                    guard let relationship = sourceVersion.relationship(key, of: current) else { break }
                    if relationship.isToMany, index < keys.count - 1 {
                        return (property, "$source." + keys.joined(separator: "."))
                    }
                    current = relationship.destination
                }
            }
        }
        return nil
    }
}

/// The hints of each entity mapping's stages that the mapping models alone decide, by mapping name.
struct ProfileHints {
    var createInstances: [String: String] = [:]
    var createRelationships: [String: String] = [:]
    /// A policy's stage 1, for when it runs as an SQL set operation.
    var runAsSQL: [String: String] = [:]
}
