import MappingModel
import ObjectModel
import PersistentStore
import SQLiteDatabase

extension MigrationSession {
    /// Runs pass `index`: the three stages, with the policy callbacks in Core Data's order, then the save.
    /// Profiled, each entity mapping's part of each stage is a segment, and so is each piece of a stage's work
    /// that belongs to no mapping.
    func runPass(_ index: Int, progress: ProgressCounter) throws {
        let pass = passes[index]
        currentFile = pass.model.file
        let rows = objects.rows
        if index > 0 {
            if options.crossPassRelationships == .coreData { forgetAssociations() } else { associations.beginPass() }
        }
        attachSourceForBulkCreation()
        var commit: MigrationProfiler.Start?
        // The transaction begins while the progress (and the profiler's phase) is still in the last pass's
        // stage 3: its BEGIN is a segment there (6 SQLite steps, all a stage 3 may take when it has no rows to
        // scan).
        let begin = index > 0 ? beginSegment() : nil
        // The BEGIN's or the COMMIT's segment while it is open: a transaction that fails there closes it unrecorded,
        // as `profiled` does for the stages' segments.
        var open = begin
        defer { abandonSegment(open) }
        try destination.connection.transaction(.immediate) {
            endSegment(begin, pass: index - 1, .validate, work: "beginning the next pass")
            open = nil
            // Stage 1: destination instances, mapping after mapping.
            for plan in pass.mappings {
                enter(plan)
                progress.enter(.createInstances, mapping: plan.mapping.name)
                try profiled(pass: index, .createInstances, plan) {
                    try createInstances(plan, pass: index, progress: progress)
                }
            }
            // Stage 2: relationships, for every destination instance of every mapping.
            for plan in pass.mappings {
                enter(plan)
                progress.enter(.createRelationships, mapping: plan.mapping.name)
                try profiled(pass: index, .createRelationships, plan) {
                    try createRelationships(plan, progress: progress)
                }
            }
            if rows.savesAtPassEnd {
                progress.enter(.save, mapping: nil)
            }
            try profiled(
                pass: index, rows.savesAtPassEnd ? .save : .createRelationships, nil, work: "writing rows",
                hint: rows.savesAtPassEnd ? "in-memory storage: every object of the pass written at its end" : nil
            ) {
                try rows.save()
                try objects.flushBatches()
            }
            // Stage 3: validation, then the end of every mapping.
            progress.enter(.validate, mapping: nil)
            for plan in pass.mappings {
                enter(plan)
                try profiled(pass: index, .validate, plan) {
                    try timedCallback(.performCustomValidation, of: plan) {
                        try plan.policy.performCustomValidation(plan.mapping, in: self)
                    }
                }
            }
            let isLast = index == passes.count - 1
            let entities = destinationEntities(of: pass)
            let buildsUniqueIndexes =
                isLast
                && entities.contains { destination.version.entity(named: $0)?.uniquenessConstraints.isEmpty == false }
            try profiled(
                pass: index, .validate, nil, work: "checking the store",
                hint: buildsUniqueIndexes ? "uniqueness constraints proved by building their unique indexes" : nil
            ) {
                let validation = DestinationValidation(store: destination, entities: entities, witness: requiredValues)
                try validation.check(relationships: isLast, buildingUniqueIndexes: isLast)
            }
            for plan in pass.mappings {
                enter(plan)
                try profiled(pass: index, .validate, plan) {
                    try timedCallback(.end, of: plan) { try plan.policy.end(plan.mapping, in: self) }
                }
            }
            currentMapping = nil
            commit = beginSegment()
            open = commit
        }
        open = nil
        endSegment(commit, pass: index, .validate, work: "committing")
        if rows.savesAtPassEnd {
            // sqlite.org/pragma.html#pragma_shrink_memory: "causes the database connection on which it is invoked
            // to free up as much memory as it can". The pass's pages are written; a later pass must not hold them
            // in the page cache beside its own objects.
            try profiled(pass: index, .validate, nil, work: "freeing the page cache") {
                try destination.connection.execute("PRAGMA shrink_memory")
            }
        }
    }

    /// Stage 1 of `plan`: its destination instances, made in SQL where they can be, else object by object.
    private func createInstances(_ plan: CompiledEntityMappingPlan, pass: Int, progress: ProgressCounter) throws {
        let rows = objects.rows
        try timedCallback(.begin, of: plan) { try plan.policy.begin(plan.mapping, in: self) }
        if plan.mapping.kind != .remove, let bulk = try bulkInstanceCreation(for: plan) {
            try rows.writeTransientRows()
            try objects.flushBatches()
            try bulk.run(progress: progress)
            tally.mappingsRunInSQL.insert(plan.mapping.name)
            if profiler != nil, let sourceEntity = plan.mapping.sourceEntity {
                cursor.rowsRead += cursor.objectCounts[sourceEntity] ?? 0
            }
        } else if plan.mapping.kind != .remove, let sourceEntity = plan.mapping.sourceEntity {
            // Whether there is one, read once: reading the filter from the plan per object copied the compiled
            // expression (two copies an object, one when read once outside the loop).
            let isFiltered = plan.filter != nil
            try cursor.forEachObject(of: sourceEntity, progress: progress) { source in
                currentDestination = nil
                if isFiltered, !(try plan.filter!.isSatisfied(in: self)) { return }
                if plan.hasDefaultPolicy, let entity = plan.mapping.destinationEntity {
                    // What the default policy would do, without handing it the mapping per object.
                    try createDestinationInstance(for: source, plan: plan, entity: entity)
                } else {
                    try timedCallback(.createDestinationInstances, of: plan) {
                        try plan.policy.createDestinationInstances(for: source, mapping: plan.mapping, in: self)
                    }
                }
                try rows.writeTransientRows()
            }
        }
        try objects.flushBatches()
        try timedCallback(.endInstanceCreation, of: plan) {
            try plan.policy.endInstanceCreation(plan.mapping, in: self)
        }
        markStageOneFinished(plan, pass: pass)
    }

    /// Stage 2 of `plan`: the relationships of its destination instances, unless stage 1 wrote them all.
    private func createRelationships(_ plan: CompiledEntityMappingPlan, progress: ProgressCounter) throws {
        let doneInStageOne = try runtimes.stageOneForeignKeys(for: plan).count
        let everythingDone =
            plan.createsRelationshipsByDefault
            && plan.relationships.filter(\.writesEdges).count == doneInStageOne
        if everythingDone, let sourceEntity = plan.mapping.sourceEntity {
            try progress.skip(cursor.objectCounts[sourceEntity] ?? 0)
        } else if let sourceEntity = plan.mapping.sourceEntity,
            let table = associations.table(named: plan.mapping.name)
        {
            try cursor.forEachObject(of: sourceEntity, progress: progress) { source in
                for destination in table.destinations(ofSource: source.primaryKey) {
                    try timedCallback(.createRelationships, of: plan) {
                        try plan.policy.createRelationships(for: destination, mapping: plan.mapping, in: self)
                    }
                }
            }
        }
        try timedCallback(.endRelationshipCreation, of: plan) {
            try plan.policy.endRelationshipCreation(plan.mapping, in: self)
        }
    }

    /// Attaches the source store read-only to the destination connection, once, so that stage 1 can run as
    /// ``BulkInstanceCreation``; streaming storage only. Where SQLite cannot attach it, every mapping takes the
    /// row-by-row path, which gives the same store.
    private func attachSourceForBulkCreation() {
        guard !objects.rows.savesAtPassEnd, options.rendersRowsInSQL, !sourceAttached else { return }
        // Another process reading the source may hold a lock for a moment (WAL recovery, a checkpoint): wait
        // for it rather than give up the faster road at once.
        try? destination.connection.execute("PRAGMA busy_timeout = 5000")
        sourceAttached =
            (try? destination.connection.attach(readOnly: source.path, as: BulkInstanceCreation.sourceSchema)) != nil
        if sourceAttached {
            // sqlite.org/mmap.html: reading through memory-mapped I/O saves a copy per page (about 4 % of this
            // step at 1,000,000 objects, measured). The source is only read; the destination, being written,
            // gains nothing from it (measured) and keeps ordinary I/O.
            try? destination.connection.execute(
                "PRAGMA \(BulkInstanceCreation.sourceSchema).mmap_size = \(BulkInstanceCreation.sourceMapBytes)")
        }
    }

    /// Detaches the source attached for ``BulkInstanceCreation``, when the passes are done.
    func detachSource() throws {
        guard sourceAttached else { return }
        try destination.connection.detach(BulkInstanceCreation.sourceSchema)
        sourceAttached = false
    }

    /// `plan`'s stage 1 as one statement per range of source keys, when the source is attached and the mapping
    /// allows it (see ``BulkInstanceCreation``).
    private func bulkInstanceCreation(for plan: CompiledEntityMappingPlan) throws -> BulkInstanceCreation? {
        guard sourceAttached, plan.hasDefaultPolicy || plan.policy is any SetOperationPolicy,
            let entity = plan.mapping.destinationEntity,
            plan.mapping.sourceEntity != nil
        else { return nil }
        return try BulkInstanceCreation.make(
            plan: plan, runtime: try runtimes.runtime(for: plan, entity: entity), session: self)
    }

    /// After a mapping's stage 1: if no later mapping (of this pass or a later one) reads the same source
    /// entity, that entity's associations are complete.
    private func markStageOneFinished(_ plan: CompiledEntityMappingPlan, pass: Int) {
        guard let sourceEntity = plan.mapping.sourceEntity, let number = source.layout.entityNumbers[sourceEntity]
        else {
            return
        }
        let position = passes[pass].mappings.firstIndex { $0.mapping.name == plan.mapping.name } ?? 0
        let later = passes[pass].mappings.dropFirst(position + 1) + passes.dropFirst(pass + 1).flatMap(\.mappings)
        if !later.contains(where: { $0.mapping.sourceEntity == sourceEntity }) {
            associations.markComplete(sourceEntity: Int32(number))
        }
    }

    private func enter(_ plan: CompiledEntityMappingPlan) {
        currentMapping = plan
    }

    /// The destination entities the pass fills, and those its policies made objects of.
    private func destinationEntities(of pass: CompiledPass) -> [String] {
        let mapped = pass.mappings.compactMap(\.mapping.destinationEntity)
        return Array(Set(mapped + objects.entitiesWritten)).sorted()
    }
}
