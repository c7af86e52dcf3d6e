extension HTMLTemplate {
    /// The page's CSS: the system's sans-serif font, quiet tables, colored status chips; no web font.
    static let style = """
        :root {
          --text: #1f2328; --muted: #656d76; --line: #d8dee4; --soft: #f6f8fa; --card: #ffffff;
          --good: #1a7f37; --good-bg: #dafbe1; --bad: #cf222e; --bad-bg: #ffebe9;
          --warn: #9a6700; --warn-bg: #fff8c5; --crash: #8250df; --crash-bg: #fbefff;
        }
        * { box-sizing: border-box; }
        body {
          margin: 0; background: var(--soft); color: var(--text); line-height: 1.45; font-size: 14px;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans",
            "Liberation Sans", Arial, sans-serif;
        }
        code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
          font-size: 12.5px; }
        h1 { font-size: 22px; margin: 0 0 4px; }
        h2 { font-size: 17px; margin: 0 0 12px; }
        h3 { font-size: 15px; margin: 20px 0 8px; }
        a { color: #0969da; text-decoration: none; }
        a:hover { text-decoration: underline; }
        .page-header { background: #24292f; color: #fff; padding: 20px 32px; }
        .page-header .meta { color: #c9d1d9; }
        .page-header code { color: #fff; }
        .command code { white-space: pre-wrap; word-break: break-all; }
        main { max-width: 1340px; margin: 0 auto; padding: 20px 24px 8px; }
        footer { text-align: center; color: var(--muted); font-size: 12px; padding: 8px 0 24px; }
        .meta { color: var(--muted); margin: 2px 0; }
        .muted { color: var(--muted); font-style: italic; }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 18px 20px;
          margin: 0 0 18px; }
        .banner { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 16px;
          border-radius: 8px; padding: 16px 20px; margin: 0 0 18px; border: 1px solid; }
        .banner h2 { margin: 0; font-size: 22px; }
        .banner p { margin: 0; }
        .banner-passed { background: var(--good-bg); border-color: #4ac26b; color: var(--good); }
        .banner-failed { background: var(--bad-bg); border-color: #ff8182; color: var(--bad); }
        .banner-headline { display: flex; align-items: center; gap: 14px; }
        .banner-mark { font-size: 30px; font-weight: 700; }
        .counts { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; margin: 0; padding: 0; }
        .count { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px;
          color: var(--text); }
        .count strong { font-size: 16px; margin-right: 2px; }
        .tone-good strong { color: var(--good); }
        .tone-bad strong { color: var(--bad); }
        .tone-warn strong { color: var(--warn); }
        .tone-neutral { color: var(--muted); }
        .table-wrap { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; font-size: 13px; }
        th, td { padding: 6px 10px; text-align: left; vertical-align: top; border-bottom: 1px solid #eaeef2; }
        td code { overflow-wrap: anywhere; }
        thead th { background: var(--soft); font-weight: 600; color: #424a53; border-bottom: 1px solid var(--line);
          white-space: nowrap; }
        tbody tr:nth-child(even) { background: #fafbfc; }
        tbody tr:hover { background: #f3f6fa; }
        .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        .range { display: block; color: var(--muted); font-size: 11.5px; }
        .key-value th { width: 200px; background: none; color: var(--muted); font-weight: 500; }
        .chip { display: inline-block; padding: 1px 9px; border-radius: 999px; font-size: 12px; font-weight: 600;
          white-space: nowrap; border: 1px solid transparent; }
        .status-passed, .chip-good, .comparison-improved { background: var(--good-bg); color: var(--good);
          border-color: #aceebb; }
        .status-integrity-failure { background: var(--bad-bg); color: var(--bad); border-color: #ffcecb; }
        .status-budget-exceeded, .status-regressed, .chip-warn, .comparison-regressed { background: var(--warn-bg);
          color: var(--warn); border-color: #f5e0a0; }
        .status-crashed, .status-error { background: var(--crash-bg); color: var(--crash); border-color: #e6d2fc; }
        .comparison-unchanged, .comparison-new, .comparison-missing, .comparison-not-judged,
        .comparison-not-comparable { background: var(--soft); color: var(--muted);
          border-color: var(--line); }
        .comparison-regressed { background: var(--bad-bg); color: var(--bad); border-color: #ffcecb; }
        .kind { color: #424a53; }
        .good-text { color: var(--good); }
        .bad-text { color: var(--bad); }
        .warn-text { color: var(--warn); margin: 4px 0; }
        .failure { color: var(--crash); background: var(--crash-bg); border-radius: 6px; padding: 8px 12px;
          white-space: pre-wrap; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
          font-size: 12.5px; }
        .scenario-name { font-weight: 400; color: var(--muted); font-size: 14px; margin-left: 6px; }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 16px; }
        .charts.single { grid-template-columns: minmax(0, 620px); margin-top: 12px; }
        .chart { margin: 0; border: 1px solid #eaeef2; border-radius: 6px; padding: 10px 12px; background: #fff; }
        .chart figcaption { font-weight: 600; margin-bottom: 4px; }
        .chart svg.plot { width: 100%; height: auto; display: block; }
        .legend svg { flex: none; }
        .chart .grid line { stroke: #eaeef2; stroke-width: 1; }
        .chart .axis line { stroke: #8c959f; stroke-width: 1; }
        .chart .tick-labels text { font-size: 11px; fill: var(--muted); }
        .chart .axis-title { font-size: 11.5px; fill: #424a53; }
        .chart-empty { color: var(--muted); font-style: italic; padding: 40px 0; text-align: center; }
        .chart-note { color: var(--muted); font-size: 12px; margin: 4px 0 0; }
        .legend { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 0; margin: 6px 0 0;
          font-size: 12.5px; }
        .legend li { display: flex; align-items: center; gap: 6px; }
        details.cell { border: 1px solid #eaeef2; border-radius: 6px; margin: 0 0 8px; }
        details.cell > summary { cursor: pointer; padding: 8px 12px; background: var(--soft); border-radius: 6px;
          display: flex; flex-wrap: wrap; align-items: center; gap: 10px; }
        details.cell[open] > summary { border-bottom: 1px solid #eaeef2; border-radius: 6px 6px 0 0; }
        .cell-title { font-weight: 600; }
        .cell-time { font-variant-numeric: tabular-nums; }
        .cell-id { color: var(--muted); margin-left: auto; }
        .cell-body { padding: 10px 12px 12px; }
        .phases tr.nested td:first-child { padding-left: 28px; color: #424a53; }
        .phases tr.total td { font-weight: 600; border-top: 2px solid var(--line); background: var(--soft); }
        .violations { margin-top: 6px; }
        h4.where { font-size: 13.5px; margin: 16px 0 4px; }
        .cause { display: block; color: var(--warn); font-size: 12px; }
        .breakdown td.share { white-space: nowrap; font-variant-numeric: tabular-nums; }
        .bar { display: inline-block; width: 120px; height: 9px; margin-right: 8px; background: var(--soft);
          border: 1px solid var(--line); border-radius: 3px; vertical-align: middle; overflow: hidden; }
        .bar > span { display: block; height: 100%; background: #0969da; }
        details.fold { margin-top: 10px; }
        details.fold > summary { cursor: pointer; color: #0969da; margin-bottom: 6px; }
        .metric-values { font-variant-numeric: tabular-nums; white-space: nowrap; margin-right: 4px; }
        .examples { margin: 0; padding-left: 18px; }
        .examples li { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
        """
}
