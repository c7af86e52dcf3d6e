import ReportModel
import Testing

@Suite("Statistic")
struct StatisticTests {
    struct Case: Sendable, CustomStringConvertible {
        let samples: [Double]
        let median: Double
        let min: Double
        let max: Double
        var description: String { "\(samples)" }
    }

    @Test(arguments: [
        Case(samples: [5], median: 5, min: 5, max: 5),
        Case(samples: [3, 1, 2], median: 2, min: 1, max: 3),
        Case(samples: [4, 1, 3, 2], median: 2.5, min: 1, max: 4),
        Case(samples: [0.2, 0.1], median: 0.15000000000000002, min: 0.1, max: 0.2),
        Case(samples: [7, 7, 1, 9, 7], median: 7, min: 1, max: 9),
    ])
    func computesMedianMinimumAndMaximum(_ test: Case) {
        let statistic = Statistic(samples: test.samples)
        #expect(statistic.median == test.median)
        #expect(statistic.min == test.min)
        #expect(statistic.max == test.max)
        #expect(statistic.samples == test.samples, "samples keep the order they were taken in")
    }

    @Test func modeLabelNamesAllThreeChoices() {
        #expect(
            Mode(passes: "multi-pass", storage: "streaming", path: "chained").label
                == "multi-pass · streaming · chained")
    }
}
