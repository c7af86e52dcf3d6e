extension HTMLTemplate {
    /// One chart as inline SVG, with its legend in HTML; ``ChartView`` is its data. Text from the report (series
    /// labels, tooltips) is escaped by the template like everywhere else.
    static let chart = """
        <figure class="chart">
          <figcaption>{{title}}</figcaption>
          {{#empty}}<p class="chart-empty">{{empty}}</p>{{/empty}}
          {{^empty}}
          <svg class="plot" viewBox="0 0 {{width}} {{height}}" role="img" aria-label="{{title}}">
            <g class="grid">
              {{#xTicks}}<line x1="{{position}}" x2="{{position}}" y1="{{plotTop}}" y2="{{plotBottom}}"/>{{/xTicks}}
              {{#yTicks}}<line x1="{{plotLeft}}" x2="{{plotRight}}" y1="{{position}}" y2="{{position}}"/>{{/yTicks}}
            </g>
            <g class="axis">
              <line x1="{{plotLeft}}" x2="{{plotRight}}" y1="{{plotBottom}}" y2="{{plotBottom}}"/>
              <line x1="{{plotLeft}}" x2="{{plotLeft}}" y1="{{plotTop}}" y2="{{plotBottom}}"/>
            </g>
            <g class="tick-labels">
              {{#xTicks}}<text x="{{position}}" y="{{xLabelY}}" text-anchor="middle">{{label}}</text>{{/xTicks}}
              {{#yTicks}}<text x="{{yLabelX}}" y="{{position}}" dy="0.32em" text-anchor="end">{{label}}</text>{{/yTicks}}
              <text class="axis-title" x="{{xTitleX}}" y="{{xTitleY}}" text-anchor="middle">{{xTitle}}</text>
            </g>
            {{#series}}
            <g class="series">
              <path d="{{path}}" fill="none" stroke="{{color}}" stroke-width="2" stroke-dasharray="{{dash}}"/>
              {{#points}}<path d="{{marker}}" fill="{{color}}"><title>{{tooltip}}</title></path>{{/points}}
            </g>
            {{/series}}
          </svg>
          <ul class="legend">
            {{#series}}
            <li><svg width="28" height="12" viewBox="0 0 28 12" aria-hidden="true"><line x1="0" x2="28" y1="6" y2="6"
              stroke="{{color}}" stroke-width="2" stroke-dasharray="{{dash}}"/><path d="{{legendMarker}}"
              fill="{{color}}"/></svg>{{label}}</li>
            {{/series}}
          </ul>
          {{/empty}}
          {{#note}}<p class="chart-note">{{note}}</p>{{/note}}
        </figure>

        """
}
