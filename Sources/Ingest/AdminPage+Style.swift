extension AdminPage {
    /// The page's styles: system fonts, one accent per meaning (green accept, red reject and
    /// destructive, grey notes), tables that scroll sideways on a phone instead of the page, and the
/// widest ones (class "stack") shown there as cards of labelled values.
    static let css = #"""
        * { box-sizing: border-box; }
        body { font: 14px/1.45 -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d1d1f; margin: 0 auto; max-width: 72em; padding: 0 1em 2em; }
        header { display: flex; flex-wrap: wrap; gap: 0.4em 1em; align-items: baseline; border-bottom: 1px solid #d2d2d7; padding-top: 0.5em; }
        h1 { font-size: 1.4em; margin: 0.2em 0; }
        h2 { font-size: 1.2em; margin: 0.8em 0 0.3em; }
        h3 { font-size: 1.05em; margin: 1.2em 0 0.4em; }
        #nav { flex: 1; display: flex; gap: 1em; }
        #nav a { color: #1d1d1f; text-decoration: none; padding: 0.2em 0; }
        #nav a.active { border-bottom: 2px solid #1d1d1f; font-weight: 600; }
        #who { color: #6e6e73; }
        a { color: #0066cc; }
        table { border-collapse: collapse; width: 100%; margin-top: 0.5em; }
        th, td { text-align: left; padding: 0.3em 0.6em; border-bottom: 1px solid #ececf0; white-space: nowrap; }
        th { font-weight: 600; color: #6e6e73; font-size: 0.9em; }
        .num { text-align: right; font-variant-numeric: tabular-nums; }
        tbody tr.link { cursor: pointer; } tbody tr.link:hover { background: #f5f5f7; }
        .scroll { overflow-x: auto; }
        .tab { border: 1px solid #d2d2d7; background: #fff; padding: 0.3em 0.9em; border-radius: 1em; cursor: pointer; margin: 0.2em 0; }
        .tab.active { background: #1d1d1f; color: #fff; }
        pre { background: #f5f5f7; padding: 0.8em; overflow-x: auto; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; }
        dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
        dt { color: #6e6e73; }
        .error { color: #b00020; }
        .warning { background: #fff4e5; border-left: 3px solid #e08a00; padding: 0.4em 0.8em; }
        .note { color: #6e6e73; }
        .filters { display: flex; flex-wrap: wrap; gap: 0.5em 1em; align-items: end; background: #f5f5f7; padding: 0.6em 0.8em; border-radius: 0.4em; margin-top: 0.8em; }
        .filters label { display: flex; flex-direction: column; font-size: 0.85em; color: #6e6e73; gap: 0.15em; }
        .filters label.check { flex-direction: row; align-items: center; gap: 0.3em; }
        .filters select, .filters input { font: inherit; font-size: 14px; }
        button { font: inherit; cursor: pointer; }
        .accept { background: #1a7f37; color: #fff; border: 0; padding: 0.4em 1.2em; border-radius: 0.3em; }
        .reject { background: #b00020; color: #fff; border: 0; padding: 0.4em 1.2em; border-radius: 0.3em; }
        .secondary { background: #fff; border: 1px solid #d2d2d7; padding: 0.35em 1em; border-radius: 0.3em; }
        textarea { width: 100%; max-width: 40em; font: inherit; }
        #charts { border: 1px solid #d2d2d7; padding: 0 1em; overflow-x: auto; }
        .chart svg { display: block; max-width: 100%; height: auto; }
        /* A ranking is drawn twice: side labels for a wide screen, labels above the bars for a phone. */
        .chart svg.narrow-chart { display: none; width: 100%; }
        .legend { display: flex; flex-wrap: wrap; gap: 0.3em 1.2em; font-size: 0.85em; color: #3a3a3c; margin: 0.3em 0; }
        .swatch { display: inline-block; width: 0.9em; height: 0.9em; border-radius: 0.15em; vertical-align: -0.1em; margin-right: 0.3em; }
        .menus { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
        .menu-col h4 { margin: 0 0 0.4em; font-size: 0.95em; }
        .menu { background: rgba(250, 250, 252, 0.98); border: 1px solid #d2d2d7; border-radius: 0.7em; box-shadow: 0 6px 24px rgba(0, 0, 0, 0.12); min-width: 15em; padding: 0.3em 0; }
        .menu .item { padding: 0.3em 1em; display: flex; justify-content: space-between; gap: 1em; }
        .menu .item.destructive { color: #d70015; }
        .menu .item.moved { background: #e8f2ff; }
        .menu .item .mark { color: #0066cc; font-size: 0.85em; }
        .menu .sep { border-top: 1px solid #d2d2d7; margin: 0.3em 0; }
        .menu .submenu > .item::after { content: "\203A"; color: #6e6e73; }
        .menu .sub { margin-left: 1em; border-left: 2px solid #ececf0; }
        .pruned { margin-top: 0.6em; font-size: 0.9em; color: #6e6e73; }
        .pruned s { color: #8e8e93; }
        .reasons li { margin: 0.25em 0; }
        .lead { font-size: 1.1em; }
        .ladder { display: flex; flex-wrap: wrap; gap: 0.6em; }
        .step { border: 1px solid #d2d2d7; border-radius: 0.5em; padding: 0.5em 0.8em; min-width: 12em; display: flex; gap: 0.5em; align-items: flex-start; }
        .step.chosen { border-color: #1a7f37; box-shadow: 0 0 0 1px #1a7f37; }
        .step.unavailable { color: #8e8e93; }
        .step small { display: block; color: #6e6e73; }
        .rollout { border: 1px solid #d2d2d7; border-radius: 0.5em; padding: 0.2em 1em 0.8em; margin: 0.6em 0; }
        .rollout h4 { margin: 0.6em 0 0.2em; }
        .verdict { font-weight: 600; }
        .verdict.better { color: #1a7f37; } .verdict.worse { color: #b00020; } .verdict.mismatch { color: #b06000; }
        .rollout-actions input[type=number] { width: 4.5em; font: inherit; }
        details { margin: 0.4em 0; }
        summary { cursor: pointer; color: #0066cc; }
        dialog { border: 1px solid #d2d2d7; border-radius: 0.6em; max-width: 30em; }
        @media (max-width: 600px) {
          body { padding: 0 0.6em 2em; }
          th, td { padding: 0.25em 0.4em; }
          .filters { flex-direction: column; align-items: stretch; }
          .menu { min-width: 0; width: 100%; }
          .menu-col { width: 100%; }
          /* Tables of many columns become cards of labelled values (labelCells), so nothing is cut at the edge. */
          table.stack thead { display: none; }
          table.stack tr { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 0.15em 0.6em; padding: 0.45em 0; border-bottom: 1px solid #ececf0; }
          table.stack td { border: 0; padding: 0; white-space: normal; text-align: left; overflow-wrap: anywhere; }
          table.stack td::before { content: attr(data-label); display: block; font-size: 0.75em; color: #6e6e73; }
          table.stack td:first-child { grid-column: 1 / -1; font-weight: 600; }
          table.stack td:first-child::before { display: none; }
          table.stack td:empty { display: none; }
          .chart svg.wide-chart { display: none; }
          .chart svg.narrow-chart { display: block; }
        }
        """#
}
