/// The Mustache templates of `index.html`: one self-contained page with inline CSS and inline SVG charts, no
/// script and no external resource, so that it opens offline.
///
/// Every value is written with `{{name}}`, which escapes HTML; the templates never use `{{{name}}}` or
/// `{{& name}}`, so no text from a report reaches the page unescaped, in HTML or in SVG.
enum HTMLTemplate {
    /// The page; ``HTMLPage`` is its data.
    static let page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>MigrationBench report {{runID}}</title>
        <style>
        {{> style}}
        </style>
        </head>
        <body>
        <header class="page-header">
          <div>
            <h1>MigrationBench report</h1>
            <p class="meta">Run <code>{{runID}}</code> · started {{startedAt}} · took {{duration}}</p>
            <p class="meta command"><code>{{command}}</code></p>
          </div>
        </header>
        <main>
        {{#verdict}}
        <section class="banner {{#passed}}banner-passed{{/passed}}{{^passed}}banner-failed{{/passed}}">
          <div class="banner-headline">
            <span class="banner-mark">{{#passed}}✓{{/passed}}{{^passed}}✗{{/passed}}</span>
            <div>
              <h2>{{headline}}</h2>
              <p>exit code {{exitCode}}</p>
            </div>
          </div>
          <ul class="counts">
            {{#counts}}<li class="count tone-{{tone}}"><strong>{{value}}</strong> {{label}}</li>{{/counts}}
          </ul>
        </section>
        {{/verdict}}
        {{> check}}

        <section class="card">
          <h2>Verdict by cell</h2>
          <div class="table-wrap">
          <table>
            <thead><tr><th>Scenario</th><th class="num">Size</th><th>Mode</th><th>Status</th>
              <th class="num">Total time (min – max)</th><th class="num">Floor ratio</th>
              <th class="num">Peak heap</th><th>Verification</th></tr></thead>
            <tbody>
            {{#cells}}
            <tr>
              <td><a href="#{{anchor}}">{{scenario}}</a></td>
              <td class="num">{{size}}</td>
              <td>{{mode}}</td>
              <td>{{> chip}}</td>
              <td class="num">{{time}}<span class="range">{{timeRange}}</span></td>
              <td class="num">{{floorRatio}}</td>
              <td class="num{{#heapUnavailable}} muted{{/heapUnavailable}}">{{peakHeap}}</td>
              <td{{#verificationFailed}} class="bad-text"{{/verificationFailed}}>{{verification}}</td>
            </tr>
            {{/cells}}
            </tbody>
          </table>
          </div>
        </section>

        <section class="card">
          <h2>Migration steps</h2>
          <div class="table-wrap">
          <table>
            <thead><tr><th>Scenario</th><th>From</th><th>To</th><th>Kind</th><th>Mapping</th></tr></thead>
            <tbody>
            {{#steps}}
            <tr><td>{{scenario}}</td><td>{{from}}</td><td>{{to}}</td><td><span class="kind">{{kind}}</span></td>
              <td><code>{{mapping}}</code></td></tr>
            {{/steps}}
            {{^steps}}<tr><td colspan="5" class="muted">No scenario describes its steps.</td></tr>{{/steps}}
            </tbody>
          </table>
          </div>
        </section>

        {{#budgets}}
        <section class="card">
          <h2>Budgets</h2>
          <p class="meta">{{summary}}</p>
          {{#exceeded}}{{> budgets}}{{/exceeded}}
          {{#all}}<details class="fold"><summary>All budgets</summary>{{> budgets}}</details>{{/all}}
        </section>
        {{/budgets}}

        {{#baseline}}
        <section class="card">
          <h2>Baseline comparison</h2>
          <p class="meta">Against <code>{{file}}</code>, run <code>{{runID}}</code>: {{tally}}. {{thresholds}}</p>
          <div class="table-wrap">
          <table class="comparison">
            <thead><tr><th>Cell</th><th>Metric</th><th class="num">Baseline → now</th><th class="num">Change</th>
              <th class="num">Difference or interval</th><th>Verdict</th><th>Rule</th></tr></thead>
            <tbody>
            {{#rows}}
            <tr><td>{{cell}}</td><td>{{metric}}</td><td class="num">{{values}}</td><td class="num">{{change}}</td>
              <td class="num">{{evidence}}</td><td><span class="chip comparison-{{verdict}}">{{verdictText}}</span></td>
              <td class="muted">{{rule}}</td></tr>
            {{/rows}}
            </tbody>
          </table>
          </div>
        </section>
        {{/baseline}}

        {{^empty(trends)}}
        <section class="card">
          <h2>Trends</h2>
          <p class="meta">Each cell's counts and floor ratio over the last runs of the history folder.</p>
          <div class="charts">
            {{#trends}}{{> chart}}{{/trends}}
          </div>
        </section>
        {{/empty(trends)}}

        {{#scenarios}}
        <section class="card scenario">
          <h2>{{title}} <span class="scenario-name">{{name}}</span></h2>
          <p>{{description}}</p>
          <p class="meta">{{^empty(file)}}<code>{{file}}</code> · {{/empty(file)}}chain {{chain}}</p>
          {{^empty(findings)}}
          {{> findings}}
          {{/empty(findings)}}
          <div class="charts">
            {{#charts}}{{> chart}}{{/charts}}
          </div>
          <h3>Cells</h3>
          {{#cells}}{{> cell}}{{/cells}}
        </section>
        {{/scenarios}}

        <section class="card">
          <h2>Environment</h2>
          <table class="key-value">
            <tbody>
            {{#environment}}<tr><th>{{name}}</th><td>{{value}}</td></tr>{{/environment}}
            </tbody>
          </table>
        </section>
        </main>
        <footer>MigrationBench · report schema version {{schemaVersion}}</footer>
        </body>
        </html>

        """

    /// A table of budgets; ``HTMLPage/Budgets/Table`` is its data.
    static let budgets = """
        <div class="table-wrap">
        <table>
          <thead><tr><th>Cell</th><th>Budget</th><th>Phase</th><th class="num">Limit</th>
            <th class="num">Measured</th><th>Result</th></tr></thead>
          <tbody>
          {{#rows}}
          <tr><td><a href="#{{anchor}}">{{cell}}</a></td><td>{{name}}</td><td>{{phase}}</td>
            <td class="num">{{limit}}</td><td class="num">{{measured}}</td>
            <td>{{#passed}}<span class="chip chip-good">held</span>{{/passed}}
              {{^passed}}<span class="chip chip-warn">exceeded</span>{{/passed}}</td></tr>
          {{/rows}}
          </tbody>
        </table>
        </div>
        """

    /// A status chip; its data has `status` (the raw value) and `statusTitle`.
    static let chip = """
        <span class="chip status-{{status}}">{{statusTitle}}</span>
        """

    /// One cell's details; ``HTMLPage/CellDetail`` is its data.
    static let cell = """
        <details class="cell" id="{{anchor}}"{{#open}} open{{/open}}>
          <summary>{{> chip}} <span class="cell-title">{{title}}</span>
            <span class="cell-time">{{time}}</span> <code class="cell-id">{{id}}</code></summary>
          <div class="cell-body">
          {{#failure}}<p class="failure">{{failure}}</p>{{/failure}}
          {{#floor}}<p class="meta">{{floor}}</p>{{/floor}}
          {{#failedBudgets}}<p class="warn-text">Budget exceeded: {{.}}</p>{{/failedBudgets}}
          {{^empty(phases)}}
          <div class="table-wrap">
          <table class="phases">
            <thead><tr><th>Phase</th><th class="num">Wall (min – max)</th><th class="num">User CPU</th>
              <th class="num">System CPU</th><th class="num">Heap peak</th><th class="num">RSS peak</th>
              <th class="num">Read</th><th class="num">Written</th><th class="num">SQLite memory</th>
              <th class="num">Objects</th><th class="num">Edges</th></tr></thead>
            <tbody>
            {{#phases}}
            <tr class="{{#nested}}nested{{/nested}}{{#isTotal}}total{{/isTotal}}">
              <td>{{name}}</td><td class="num">{{wall}}<span class="range">{{wallRange}}</span></td>
              <td class="num">{{user}}</td><td class="num">{{system}}</td>
              <td class="num{{#heapUnavailable}} muted{{/heapUnavailable}}">{{heapPeak}}</td>
              <td class="num">{{residentPeak}}</td><td class="num">{{read}}</td><td class="num">{{written}}</td>
              <td class="num">{{sqliteMemory}}</td><td class="num">{{objects}}</td><td class="num">{{edges}}</td>
            </tr>
            {{/phases}}
            </tbody>
          </table>
          </div>
          {{/empty(phases)}}
          {{#breakdown}}
          <h4 class="where">Where it went — {{step}}</h4>
          <p class="meta">{{summary}}</p>
          {{#stages}}<p class="meta">{{.}}</p>{{/stages}}
          <div class="table-wrap">
          <table class="phases breakdown">
            <thead><tr><th class="num">#</th><th>Part (stage · entity mapping, or the stage's own work)</th>
              <th>Share of the step</th><th class="num">Wall (min – max)</th><th class="num">CPU</th>
              <th class="num">Rows read</th><th class="num">Objects</th><th class="num">Edges</th>
              <th class="num">Heap growth</th>
              {{#countsInstructions}}<th class="num">Instructions (callgrind)</th>{{/countsInstructions}}
              <th class="num">Allocations</th><th class="num">SQLite steps</th></tr></thead>
            <tbody>
            {{#rows}}
            <tr><td class="num">{{rank}}</td>
              <td>{{label}}{{#hint}}<span class="cause">{{hint}}</span>{{/hint}}
                {{#callbacks}}<span class="range">{{.}}</span>{{/callbacks}}</td>
              <td class="share"><span class="bar"><span style="width: {{bar}}%"></span></span>{{share}}</td>
              <td class="num">{{wall}}<span class="range">{{wallRange}}</span></td><td class="num">{{cpu}}</td>
              <td class="num">{{rows}}</td><td class="num">{{objects}}</td><td class="num">{{edges}}</td>
              <td class="num">{{heapGrowth}}</td>
              {{#countsInstructions}}<td class="num">{{instructions}}</td>{{/countsInstructions}}
              <td class="num">{{allocations}}</td><td class="num">{{sqliteSteps}}</td></tr>
            {{/rows}}
            </tbody>
          </table>
          </div>
          {{#rest}}<p class="meta">{{rest}}</p>{{/rest}}
          {{^empty(statements)}}
          <div class="table-wrap">
          <table class="phases statements">
            <thead><tr><th>Statement (SQLite's own clock)</th><th class="num">Share of the step</th>
              <th class="num">Time</th><th class="num">Runs</th><th class="num">Rows written</th></tr></thead>
            <tbody>
            {{#statements}}
            <tr><td><code>{{text}}</code></td><td class="num">{{share}}</td><td class="num">{{time}}</td>
              <td class="num">{{runs}}</td><td class="num">{{rows}}</td></tr>
            {{/statements}}
            </tbody>
          </table>
          </div>
          {{/empty(statements)}}
          {{/breakdown}}
          {{#counts}}
          <div class="table-wrap">
          <table class="phases counts">
            <thead><tr><th>Counts (do not move with the machine's load)</th>
              {{#titles}}<th class="num">{{.}}</th>{{/titles}}</tr></thead>
            <tbody>
            {{#rows}}
            <tr class="{{#nested}}nested{{/nested}}{{#isTotal}}total{{/isTotal}}"><td>{{name}}</td>
              {{#values}}<td class="num">{{.}}</td>{{/values}}</tr>
            {{/rows}}
            </tbody>
          </table>
          </div>
          {{#unavailable}}<p class="meta">{{.}}</p>{{/unavailable}}
          {{^empty(methods)}}<p class="meta">Counted by {{methods}}.</p>{{/empty(methods)}}
          {{/counts}}
          {{#verification}}
          <p class="{{#passed}}good-text{{/passed}}{{^passed}}bad-text{{/passed}}">{{summary}}</p>
          {{^empty(violations)}}
          <table class="violations">
            <thead><tr><th>Violation</th><th>Where</th><th class="num">Count</th><th>First examples</th></tr></thead>
            <tbody>
            {{#violations}}
            <tr><td>{{kind}}</td><td>{{location}}</td><td class="num">{{count}}</td>
              <td><ul class="examples">{{#examples}}<li>{{.}}</li>{{/examples}}</ul></td></tr>
            {{/violations}}
            </tbody>
          </table>
          {{/empty(violations)}}
          {{^empty(notChecked)}}<p class="meta">Not checked:</p>
          <ul class="examples">{{#notChecked}}<li>{{.}}</li>{{/notChecked}}</ul>{{/empty(notChecked)}}
          {{/verification}}
          {{#memoryChart}}<div class="charts single">{{> chart}}</div>{{/memoryChart}}
          </div>
        </details>

        """
}
