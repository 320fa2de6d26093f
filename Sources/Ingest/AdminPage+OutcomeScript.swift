extension AdminPage {
    /// On an element type's page: the outcome of its layouts over the dashboard's window and
    /// filters (`GET /v1/admin/outcomes`, `menurank outcomes`' document): each menu version the
    /// app sent with its opens, dismissal rate and latencies, then each accepted layout against the
    /// one before it, with the verdict, the measured differences and what the proposal predicted.
    static let outcomeScript = #"""
        // ==== Outcomes of accepted layouts (element type page) ====
        function versionLabel(v) {
          if (v.status === "known") { return "version " + v.layout_version + (v.proposal_id ? " (proposal #" + v.proposal_id + ")" : " (manifest)"); }
          if (v.status === "rollout") { return "rollout #" + v.rollout_id + " (proposal #" + v.proposal_id + ")"; }
          if (v.status === "not_sent") { return "no menu_version sent"; }
          return "unknown to the server";
        }

        const ms = (q) => q ? Math.round(q.estimate) + " ms" : "-";
        const signedNumber = (x, digits, unit) => (x > 0 ? "+" : "") + x.toFixed(digits) + unit;

        function comparisonText(c) {
          const parts = ["Version " + c.new.layout_version + " (menu_version " + c.new.menu_version + ", accepted from proposal #" +
            c.proposal_id + ") against version " + c.old.layout_version + ": " + c.verdict + "."];
          const d = c.median_latency_difference_ms;
          if (d) { parts.push("Median selection latency " + signedNumber(d.estimate, 0, " ms") + " (95% interval " + signedNumber(d.low, 0, "") +
            " to " + signedNumber(d.high, 0, " ms") + ")."); }
          const r = c.dismissal_rate_difference;
          parts.push("Dismissal rate " + signedNumber(r.estimate * 100, 2, " points") + " (95% interval " + signedNumber(r.low * 100, 2, "") +
            " to " + signedNumber(r.high * 100, 2, "") + ").");
          if (c.predicted && c.new.scan_depth !== null) {
            parts.push("Scan depth predicted " + c.predicted.scan_depth_before.toFixed(2) + " \u2192 " + c.predicted.scan_depth_after.toFixed(2) +
              ", observed " + (c.old.scan_depth === null ? "-" : c.old.scan_depth.toFixed(2)) + " \u2192 " + c.new.scan_depth.toFixed(2) + ".");
          }
          parts.push(c.method.kind === "same_days" ? "Compared over the " + c.method.days.length + " day(s) both were served."
            : "Compared before and after the accept (too few days on which both were served).");
          if (c.reason) { parts.push(c.reason); }
          return parts.join(" ");
        }

        async function outcomesSection(appName, elementType, container, params) {
          const query = new URLSearchParams();
          for (const name of filterNames) { if (params.get(name)) { query.set(name, params.get(name)); } }
          query.set("app", appName); query.set("element_type", elementType);
          const data = await api("/v1/admin/outcomes?" + query.toString());
          const element = data.element_types.find((e) => e.element_type === elementType);
          const fresh = freshnessText(data.freshness);
          const section = h("div", {id: "outcomes"}, h("h3", {}, "Outcomes of its layouts"),
                            h("p", {id: "outcomes-freshness", class: fresh.warning ? "warning" : "note"}, fresh.text));
          container.append(section);
          if (!element) {
            section.append(h("p", {class: "note"}, "No menu opens with a menu_version from " + data.window.from + " to " + data.window.to + "."));
            return;
          }
          section.append(h("div", {class: "scroll"}, h("table", {id: "outcome-versions", class: "stack"},
            h("thead", {}, h("tr", {}, ...["menu_version", "layout", "opens", "dismissal rate", "median", "p75", "scan depth"]
              .map((name, i) => h("th", {class: i > 1 ? "num" : null}, name)))),
            h("tbody", {}, ...element.versions.map((v) => h("tr", {"data-status": v.status},
              h("td", {}, v.menu_version || "-"), h("td", {}, versionLabel(v)), h("td", {class: "num"}, count(v.opens)),
              h("td", {class: "num"}, v.opens ? percent(v.dismissal_rate.estimate) : "-"),
              h("td", {class: "num"}, ms(v.latency_ms.median)), h("td", {class: "num"}, ms(v.latency_ms.p75)),
              h("td", {class: "num"}, v.scan_depth === null ? "-" : v.scan_depth.toFixed(2))))))));
          labelCells($("outcome-versions"));
          if (element.comparisons.length === 0) {
            section.append(h("p", {class: "note"}, "No layout accepted from a proposal was served in this window, so there is nothing to compare yet."));
          } else {
            section.append(h("ul", {id: "outcome-comparisons"}, ...element.comparisons.map((c) =>
              h("li", {"data-verdict": c.verdict}, comparisonText(c)))));
          }
        }
        elementExtras.push(outcomesSection);
        """#
}
