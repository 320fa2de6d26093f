extension AdminPage {
    /// On an element type's page: its rollouts (`GET /v1/admin/rollouts?app=`), each with its state,
    /// arms, share, verdict and the latest look's figures (`GET /v1/admin/rollouts/ID`), the always-valid
    /// intervals over the days as charts (`GET /v1/admin/rollout-reports/ID`, parsed inert into a shadow
    /// root like the proposal's charts), its decisions, and for a running one the decisions widen,
    /// promote and stop, each confirmed first (`POST /v1/admin/rollouts/ID`). The arms are called
    /// "current" (the layout served before the rollout) and "rollout" (the proposal's layout), as in
    /// `menurank outcomes` and `rollouts show`.
    static let rolloutScript = #"""
        // ==== Rollouts (element type page) ====
        const metricNames = {median_latency_ms: "median selection latency", p75_latency_ms: "75th-percentile latency",
                             dismissal_rate: "dismissal rate", scan_depth: "observed scan depth"};

        function metricValue(name, x, signedValue) {
          if (x === null || x === undefined) { return "-"; }
          const sign = signedValue && x > 0 ? "+" : "";
          if (name === "dismissal_rate") { return sign + (x * 100).toFixed(signedValue ? 2 : 1) + (signedValue ? " pt" : "%"); }
          if (name === "scan_depth") { return sign + x.toFixed(2); }
          return sign + Math.round(x) + " ms";
        }

        function rolloutState(r) {
          const share = percent(r.share, 0);
          if (r.status === "running") {
            return "Running since " + r.started + ": the layout of proposal #" + r.proposal_id + " (menu_version " + r.new.menu_version +
              ") is served to " + share + " of people; the rest keep the current layout, version " + r.old.layout_version +
              " (menu_version " + r.old.menu_version + "). The comparison covers the days since " + r.share_since + ".";
          }
          return (r.status === "promoted" ? "Promoted " : "Stopped ") + (r.ended || "") + ": " + (r.status === "promoted"
            ? "the rollout layout (menu_version " + r.new.menu_version + ") is now served to everyone."
            : "the current layout (menu_version " + r.old.menu_version + ") is served to everyone again.") +
            " It ran for " + share + " of people.";
        }

        function lookTable(look) {
          const rows = Object.entries(look.metrics).map(([name, m]) => h("tr", {"data-metric": name},
            h("td", {}, metricNames[name] || name), h("td", {class: "num"}, metricValue(name, m.old)),
            h("td", {class: "num"}, metricValue(name, m.new)), h("td", {class: "num"}, metricValue(name, m.difference, true)),
            h("td", {class: "num"}, m.lower === null ? "not yet" : metricValue(name, m.lower, true) + " to " + metricValue(name, m.upper, true))));
          const table = h("table", {class: "look stack"},
            h("thead", {}, h("tr", {}, h("th", {}, "metric"), h("th", {class: "num"}, "current"), h("th", {class: "num"}, "rollout"),
              h("th", {class: "num"}, "rollout \u2212 current"), h("th", {class: "num"}, "95% always-valid interval"))),
            h("tbody", {}, ...rows));
          labelCells(table);
          return h("div", {class: "scroll"}, table);
        }

        // The decisions of a running rollout: widen, promote, stop; each asks first.
        function rolloutActions(r, elementType) {
          const note = h("textarea", {id: "rollout-note-" + r.id, rows: 2, maxlength: 2000, placeholder: "Why (kept with the decision)"});
          const share = h("input", {id: "rollout-share-" + r.id, type: "number", min: 1, max: 99, step: 1, size: 4,
                                    value: Math.min(99, Math.round(r.share * 100) + 10)});
          const error = h("span", {class: "error", role: "alert", id: "rollout-error-" + r.id});
          const act = async (body, question, yes) => {
            error.textContent = "";
            if (!note.value.trim()) { error.textContent = "Say why first."; return; }
            if (!(await confirmDialog(question, yes))) { return; }
            try {
              body.note = note.value;
              document.body.dataset.lastRolloutDecision = JSON.stringify(body);
              await api("/v1/admin/rollouts/" + r.id, {method: "POST", headers: {"Content-Type": "application/json"},
                        body: JSON.stringify(body)});
              route();
            } catch (e) { error.textContent = e.message; }
          };
          const widen = h("button", {class: "secondary", id: "rollout-widen-" + r.id}, "Widen\u2026");
          widen.addEventListener("click", () => act({action: "set_share", share: share.value + "%"},
            "Serve the rollout layout of " + elementType + " to " + share.value + "% of people instead of " + percent(r.share, 0) +
            "? Everyone who has it keeps it; the comparison starts again from now.", "Widen"));
          const promote = h("button", {class: "accept", id: "rollout-promote-" + r.id}, "Promote\u2026");
          promote.addEventListener("click", () => act({action: "promote"},
            "Promote rollout #" + r.id + "? Its layout becomes the current layout of " + elementType + " for everyone.", "Promote"));
          const stop = h("button", {class: "reject", id: "rollout-stop-" + r.id}, "Stop\u2026");
          stop.addEventListener("click", () => act({action: "stop"},
            "Stop rollout #" + r.id + "? Everyone gets the current layout again, and proposal #" + r.proposal_id + " is marked rejected.", "Stop"));
          return h("div", {class: "rollout-actions"}, h("h4", {}, "Decide"), note, h("br"),
            h("label", {}, "Share of people ", share, " % "), widen, " ", promote, " ", stop, " ", error);
        }

        async function rolloutBlock(r, elementType) {
          const data = await api("/v1/admin/rollouts/" + r.id);
          const look = data.looks.length ? data.looks[data.looks.length - 1] : null;
          const verdictClass = {"better": "better", "worse": "worse", "sample ratio mismatch": "mismatch"}[data.verdict] || "none";
          const block = h("article", {class: "rollout", id: "rollout-" + r.id, "data-status": r.status},
            h("h4", {}, "Rollout #" + r.id + " (" + r.status + ")"),
            h("p", {class: "note rollout-state"}, rolloutState(data)),
            h("p", {class: "verdict " + verdictClass, id: "rollout-verdict-" + r.id},
              "Verdict: " + data.verdict + (look ? " \u2014 " + look.reason : " \u2014 no events of either arm since the share was set.")));
          if (look) {
            block.append(h("p", {class: "rollout-people"}, count(look.people.old) + " people on the current layout, " +
              count(look.people.new) + " on the rollout" + (look.people.mixed ? " (" + count(look.people.mixed) + " seen on both, left out)" : "") +
              "; the rollout's share of people is " + (look.share.observed === null ? "-" : percent(look.share.observed, 1)) + " of " +
              percent(look.share.configured, 0) + " configured (sample-ratio p " + (look.share.p_value < 0.000001 ? "< 0.000001"
              : "= " + Number(look.share.p_value).toPrecision(2)) + ")."),
              lookTable(look));
          }
          const charts = h("div", {class: "rollout-charts", id: "rollout-charts-" + r.id});
          block.append(charts);
          const response = await fetch("/v1/admin/rollout-reports/" + r.id, {headers: {"Authorization": "Bearer " + token}});
          if (response.ok) {
            const report = new DOMParser().parseFromString(await response.text(), "text/html");
            const root = charts.attachShadow({mode: "open"});
            root.append(...report.head.querySelectorAll("style"), ...report.querySelectorAll("figure.rollout-chart"));
          }
          if (data.decisions.length) {
            block.append(h("details", {class: "rollout-decisions"}, h("summary", {}, "Decisions (" + data.decisions.length + ")"),
              h("ul", {}, ...data.decisions.map((d) => h("li", {}, d.at + ": " + (d.by || "?") + " " + d.action.replace("_", " ") +
                (d.share === null ? "" : " " + percent(d.share, 0)) + (d.note ? ": " + d.note : ""))))));
          }
          if (r.status === "running") { block.append(rolloutActions(data, elementType)); }
          return block;
        }

        async function rolloutsSection(appName, elementType, container) {
          const data = await api("/v1/admin/rollouts?app=" + encodeURIComponent(appName));
          const mine = data.rollouts.filter((r) => r.element_type === elementType);
          if (mine.length === 0) { return; }
          // The running one (at most one per element type) and the latest ended one; older ones in the CLI.
          const shown = mine.filter((r) => r.status === "running").concat(mine.filter((r) => r.status !== "running").slice(0, 1));
          const section = h("div", {id: "rollouts"}, h("h3", {}, "Rollouts"));
          container.append(section);
          for (const r of shown) { section.append(await rolloutBlock(r, elementType)); }
          if (mine.length > shown.length) {
            section.append(h("p", {class: "note"}, (mine.length - shown.length) + " older rollout" + (mine.length - shown.length === 1 ? "" : "s") +
              ": menurank rollouts list --app " + appName + "."));
          }
        }
        elementExtras.push(rolloutsSection);
        """#
}
