import Instrumentation
import Testing

@Suite("Callgrind parts")
struct CallgrindPartsTests {
    @Test func eachPhaseTakesTheSummaryOfItsPart() {
        let part = { (index: Int, summary: Int) in
            """
            version: 1
            creator: callgrind-3.19.0
            desc: Trigger: Client Request: \(CallgrindParts.partName(index))
            events: Ir
            summary: \(summary)
            fn=main
            3 10
            totals: \(summary + 7)
            """
        }
        let final = "version: 1\ndesc: Trigger: Program termination\nsummary: 99\ntotals: 99\n"
        let counts = CallgrindParts.counts(inFiles: [part(0, 1_000), part(12, 2_345), final])
        #expect(counts == [0: 1_000, 12: 2_345])
    }

    @Test func anOlderPartWithoutASummaryTakesItsTotals() {
        let text = "desc: Trigger: Client Request: \(CallgrindParts.partName(3))\ntotals: 77\n"
        #expect(CallgrindParts.counts(inFiles: [text]) == [3: 77])
    }

    @Test func onlyTheMeasuringThreadsPartsCount() {
        // With --separate-threads=yes the memory sampler's thread (2) has parts of its own, whose size depends on
        // time: they must not be added.
        let name = CallgrindParts.partName(0)
        let main = "thread: 1\ndesc: Trigger: Client Request: \(name)\nsummary: 500\n"
        let sampler = "thread: 2\ndesc: Trigger: Client Request: \(name)\nsummary: 40\n"
        #expect(CallgrindParts.counts(inFiles: [sampler, main]) == [0: 500])
    }

    /// Every thread's file of a part is written by the measured process when its phase ends: all their bytes, by
    /// part, come out of the phase's bytes written; the file written at the program's end belongs to no phase.
    @Test func thePartsBytesAreCountedByPartOverEveryThread() {
        let name = CallgrindParts.partName(2)
        let main = "thread: 1\ndesc: Trigger: Client Request: \(name)\nsummary: 500\n"
        let sampler = "thread: 2\ndesc: Trigger: Client Request: \(name)\nsummary: 40\n"
        let final = "version: 1\ndesc: Trigger: Program termination\nsummary: 99\n"
        #expect(
            CallgrindParts.dumpedBytes(inFiles: [main, sampler, final]) == [2: main.utf8.count + sampler.utf8.count])
    }
}
