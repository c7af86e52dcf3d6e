import ReportModel

extension Report {
    /// The scenarios with their cells, in the report's order; cells of a scenario the report does not
    /// describe get a summary of their own at the end.
    var scenarioGroups: [(summary: ScenarioSummary, cells: [Cell])] {
        var names = scenarios.map(\.name)
        for cell in cells where !names.contains(cell.scenario) { names.append(cell.scenario) }
        return names.map { name in
            let summary =
                scenarios.first { $0.name == name }
                ?? ScenarioSummary(name: name, title: name, description: "", file: "", chain: [], steps: [])
            return (summary, cells.filter { $0.scenario == name })
        }
    }

    /// The findings of the scenarios (such as `policyNotSimulated`), each with its scenario's name.
    var scenarioFindings: [(scenario: String, finding: Finding)] {
        scenarios.flatMap { scenario in (scenario.findings ?? []).map { (scenario.name, $0) } }
    }
}
