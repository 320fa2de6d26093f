extension AdminPage {
    /// The page's script: its sections joined in order. Each view is a section with its own
    /// route (`routes`, keyed by the first part of the location's hash: `#/usage/...`,
    /// `#/proposals/...`, `#/proposal/ID`); a new view adds a section and a route.
    static let script = ["\n\"use strict\";\n", basicsScript, signInScript, usageScript, elementScript, outcomeScript, rolloutScript, layoutScript,
                         proposalsScript, proposalScript, startScript].joined(separator: "\n")

    /// Basics: elements, the API with the bearer token, formatting, charts, the router.
    static let basicsScript = #"""
        // ==== Basics ====
        const $ = (id) => document.getElementById(id);
        let token = sessionStorage.getItem("menurank-token") || "";
        const routes = {};
        const views = ["login", "usage", "list", "detail"];

        // An element with attributes and children; strings become text (never HTML).
        function h(tag, attributes, ...children) {
          const node = document.createElement(tag);
          for (const [name, value] of Object.entries(attributes || {})) {
            if (value === null || value === undefined || value === false) { continue; }
            if (name === "text") { node.textContent = value; } else { node.setAttribute(name, value === true ? "" : String(value)); }
          }
          for (const child of children.flat()) {
            if (child === null || child === undefined) { continue; }
            node.append(typeof child === "string" ? document.createTextNode(child) : child);
          }
          return node;
        }

        function svg(tag, attributes, ...children) {
          const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
          for (const [name, value] of Object.entries(attributes || {})) {
            if (name === "text") { node.textContent = value; } else { node.setAttribute(name, String(value)); }
          }
          for (const child of children.flat()) { if (child) { node.append(child); } }
          return node;
        }

        async function api(path, options) {
          const init = Object.assign({headers: {}}, options || {});
          init.headers["Authorization"] = "Bearer " + token;
          const response = await fetch(path, init);
          const text = await response.text();
          let body = null;
          try { body = JSON.parse(text); } catch (e) { body = text; }
          if (!response.ok) {
            const message = body && body.message ? body.message : ("HTTP " + response.status);
            const error = new Error(message); error.status = response.status; throw error;
          }
          return body;
        }

        const count = (n) => Number(n).toLocaleString("en-US");
        const percent = (x, digits) => (x * 100).toFixed(digits === undefined ? 1 : digits) + "%";
        const signed = (x) => (x > 0 ? "+" : "") + x.toFixed(1) + "%";

        function show(section) {
          for (const id of views) { $(id).hidden = id !== section; }
          $("signout").hidden = section === "login";
          $("nav").hidden = section === "login";
          $("nav-usage").classList.toggle("active", section === "usage");
          $("nav-proposals").classList.toggle("active", section === "list" || section === "detail");
        }

        function fail(error) {
          if (error && error.status === 401) { signOut(); return; }
          $("page-error").textContent = error.message || String(error);
          $("page-error").hidden = false;
        }

        // The route of the location's hash: "#/usage/mail.message?app=mail" is routes.usage(["mail.message"], params).
        function route() {
          if (!token) { show("login"); return; }
          $("page-error").hidden = true;
          const hash = location.hash.replace(/^#\/?/, "");
          const [path, query] = hash.split("?");
          const parts = path.split("/").filter((p) => p.length > 0).map(decodeURIComponent);
          const name = parts.shift() || "usage";
          const handler = routes[name] || routes.usage;
          // body's data-shown names the location once its view is drawn (the browser tests wait for it).
          document.body.dataset.shown = "";
          Promise.resolve(handler(parts, new URLSearchParams(query || "")))
            .then(() => { document.body.dataset.shown = location.hash || "#"; }, fail);
        }

        function go(hash) { if (location.hash === hash) { route(); } else { location.hash = hash; } }

        // A line of daily values as a small SVG.
        function sparkline(values, width, height) {
          const max = Math.max(1, ...values);
          const step = values.length > 1 ? width / (values.length - 1) : width;
          const points = values.map((v, i) => (i * step).toFixed(1) + "," + (height - 1 - (v / max) * (height - 2)).toFixed(1));
          return svg("svg", {width: width, height: height, viewBox: "0 0 " + width + " " + height, role: "img",
                             "aria-label": "daily selections, highest " + max},
                     svg("polyline", {points: points.join(" "), fill: "none", stroke: "#0066cc", "stroke-width": 1.5}));
        }

        // Gives each cell of a table's body its column's name (data-label): at phone width a
        // table of class "stack" shows each row as a card of labelled values instead of columns.
        function labelCells(table) {
          const names = Array.from(table.tHead.rows[0].cells).map((cell) => cell.textContent);
          for (const row of table.tBodies[0].rows) { Array.from(row.cells).forEach((cell, i) => { cell.dataset.label = names[i] || ""; }); }
        }

        // Asks for confirmation in the page's dialog; resolves true for yes.
        function confirmDialog(text, yes) {
          return new Promise((resolve) => {
            const dialog = $("confirm");
            $("confirm-text").textContent = text;
            $("confirm-yes").textContent = yes;
            const done = (answer) => { dialog.close(); $("confirm-yes").onclick = null; $("confirm-no").onclick = null; resolve(answer); };
            $("confirm-yes").onclick = () => done(true);
            $("confirm-no").onclick = () => done(false);
            dialog.oncancel = () => resolve(false);
            dialog.showModal();
          });
        }
        """#

    /// Sign-in: the token in session storage, checked against `GET /v1/admin/session`.
    static let signInScript = #"""
        // ==== Sign-in ====
        let session = null;

        async function signIn(candidate) {
          token = candidate;
          try {
            session = await api("/v1/admin/session");
            sessionStorage.setItem("menurank-token", token);
            $("who").textContent = "Signed in as " + session.name + (session.app ? " (app " + session.app + ")" : " (all apps)");
            $("login-error").textContent = "";
            route();
          } catch (error) {
            token = ""; sessionStorage.removeItem("menurank-token");
            $("login-error").textContent = error.message;
            show("login");
          }
        }

        function signOut() {
          token = ""; session = null; sessionStorage.removeItem("menurank-token");
          $("who").textContent = ""; show("login");
        }

        $("login-form").addEventListener("submit", (event) => { event.preventDefault(); signIn($("token").value.trim()); });
        $("signout").addEventListener("click", signOut);
        """#

    /// The usage dashboard: apps, filters, element types with their daily trend
    /// (`GET /v1/admin/apps`, `GET /v1/admin/usage`).
    static let usageScript = #"""
        // ==== Usage dashboard ====
        let appNames = null;
        const filterNames = ["app", "from", "to", "platform", "min_app_version", "include_test"];

        // The filters of the form as query parameters (empty ones left out).
        function filterParams() {
          const params = new URLSearchParams();
          const values = {app: $("f-app").value, from: $("f-from").value, to: $("f-to").value, platform: $("f-platform").value,
                          min_app_version: $("f-version").value.trim(), include_test: $("f-test").checked ? "true" : ""};
          for (const name of filterNames) { if (values[name]) { params.set(name, values[name]); } }
          return params;
        }

        function usageQuery(params, elementType) {
          const query = new URLSearchParams();
          for (const name of filterNames) { if (params.get(name)) { query.set(name, params.get(name)); } }
          // The app's overview lists the element types' own figures (commands=false: no command
          // read or ranked); an element type's page reads its ranking.
          if (elementType) { query.set("element_type", elementType); } else { query.set("commands", "false"); }
          return "/v1/admin/usage?" + query.toString();
        }

        function fillFilters(params, usage) {
          $("f-app").value = usage.app;
          $("f-from").value = usage.window.from;
          $("f-to").value = usage.window.to;
          const platform = $("f-platform");
          platform.replaceChildren(h("option", {value: ""}, "all platforms"),
                                   ...usage.segments.platforms.map((p) => h("option", {value: p}, p)));
          platform.value = params.get("platform") || "";
          $("f-versions").replaceChildren(...usage.segments.app_versions.map((v) => h("option", {value: v})));
          $("f-version").value = params.get("min_app_version") || "";
          $("f-test").checked = params.get("include_test") === "true";
        }

        // When the figures were computed and what they leave out, said the same way on every view
        // that shows figures: the dashboard, the element type's page and its outcomes (read now
        // from the rollups, after counting what just arrived when that is small enough) and the
        // proposal (filed then; the rollups as they are now beside it). f is an answer's freshness.
        const readAt = (stamp) => stamp.replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, " UTC");

        function freshnessText(f) {
          const when = f.rolled_up_at ? "as of the rollup of " + readAt(f.rolled_up_at) : "from the rollups (never run for this app yet)";
          if (f.uncounted_events > 0) {
            return {warning: true, text: "Figures " + when + "; " + count(f.uncounted_events) + " stored events (on " +
              f.uncounted_days.join(", ") + ") are pending, not counted in them yet: the nightly run (or menurank rollup) counts them."};
          }
          return {warning: false, text: "Figures " + when + ": every stored event is counted" + (f.folded_events > 0
            ? " (" + count(f.folded_events) + " that had just arrived were counted before answering)." : ".")};
        }

        function showFreshness(usage) {
          const said = freshnessText(usage.freshness);
          const box = $("freshness");
          box.hidden = false;
          box.className = said.warning ? "warning" : "note";
          box.textContent = said.text;
        }

        async function loadApps() {
          if (appNames) { return appNames; }
          const data = await api("/v1/admin/apps");
          appNames = data.apps.map((a) => a.name);
          $("f-app").replaceChildren(...appNames.map((name) => h("option", {value: name}, name)));
          return appNames;
        }

        routes.usage = async (parts, params) => {
          const apps = await loadApps();
          show("usage");
          if (!params.get("app")) {
            if (apps.length === 0) {
              $("usage-app").hidden = false; $("usage-element").hidden = true;
              $("usage-title").textContent = "No apps yet";
              $("usage-summary").textContent = "Create one with menurank apps create NAME.";
              $("element-types").tBodies[0].replaceChildren();
              return;
            }
            params.set("app", apps[0]);
          }
          if (parts.length > 0) { return showElementType(parts[0], params); }
          $("usage-app").hidden = false; $("usage-element").hidden = true;
          const usage = await api(usageQuery(params));
          $("nav-usage").setAttribute("href", "#/usage?" + params.toString());
          fillFilters(params, usage);
          showFreshness(usage);
          const selections = usage.element_types.reduce((sum, e) => sum + e.selections, 0);
          $("usage-title").textContent = usage.app + ": " + usage.window.from + " to " + usage.window.to;
          const types = usage.element_types.length;
          $("usage-summary").textContent = count(selections) + " selections on " + types + " element type" +
            (types === 1 ? "" : "s") + ". Choose one to see its commands.";
          const body = $("element-types").tBodies[0];
          body.replaceChildren();
          for (const e of usage.element_types) {
            const daily = (usage.daily[e.element_type] || {selections: []}).selections;
            const row = h("tr", {class: "link", "data-element-type": e.element_type},
              h("td", {}, e.element_type), h("td", {class: "num"}, count(e.selections)), h("td", {class: "num"}, count(e.users)),
              h("td", {class: "num"}, e.dismissal_rate === null ? "-" : percent(e.dismissal_rate)),
              h("td", {}, sparkline(daily, 120, 22)),
              h("td", {class: "num"}, e.trend ? signed(e.trend.percent_change) : "new"),
              h("td", {class: "num"}, e.undeclared_selections ? count(e.undeclared_selections) : ""));
            row.addEventListener("click", () => {
              const query = filterParams();
              go("#/usage/" + encodeURIComponent(e.element_type) + "?" + query.toString());
            });
            body.appendChild(row);
          }
          labelCells($("element-types"));
          const empty = $("usage-empty");
          empty.hidden = usage.element_types.length > 0;
          empty.textContent = usage.freshness.uncounted_events > 0
            ? "No counted use in this window yet: " + count(usage.freshness.uncounted_events) + " stored events are waiting for the rollup."
            : "No use in this window with these filters.";
        };

        $("filters").addEventListener("submit", (event) => {
          event.preventDefault();
          const element = location.hash.match(/^#\/usage\/([^?]+)/);
          const sameApp = element && new URLSearchParams(location.hash.split("?")[1] || "").get("app") === $("f-app").value;
          go("#/usage" + (sameApp ? "/" + element[1] : "") + "?" + filterParams().toString());
        });
        $("f-app").addEventListener("change", () => go("#/usage?app=" + encodeURIComponent($("f-app").value)));
        """#

    /// An element type's page: its ranking as a chart with a legend and a table
    /// (`GET /v1/admin/usage?element_type=T`); other sections add to `#element-extra` through
    /// `elementExtras`.
    static let elementScript = #"""
        // ==== Element type page ====
        // Functions (appName, elementType, container, params) that add to the element type's page (params: the filters).
        const elementExtras = [];

        // The bars of one command: share (dark) and reach (light), each with its 95% interval as a line.
        function commandBars(chart, c, x, left, y, bar) {
          chart.append(svg("rect", {x: left, y: y, width: Math.max(1, x(c.share) - left), height: bar - 2, fill: "#1d4ed8"}));
          chart.append(svg("line", {x1: x(c.share_low), x2: x(c.share_high), y1: y + bar / 2 - 1, y2: y + bar / 2 - 1, stroke: "#0b1f55", "stroke-width": 1.5}));
          chart.append(svg("rect", {x: left, y: y + bar, width: Math.max(1, x(c.reach) - left), height: bar - 2, fill: "#93c5fd"}));
          chart.append(svg("line", {x1: x(c.reach_low), x2: x(c.reach_high), y1: y + 1.5 * bar - 1, y2: y + 1.5 * bar - 1, stroke: "#1e3a8a", "stroke-width": 1.5}));
        }

        // The axis of a chart: its left edge and ticks at each quarter of max (with flush, the first
        // and last tick end at the edges rather than centred past them).
        function chartAxis(chart, x, left, height, max, flush) {
          chart.append(svg("line", {x1: left, x2: left, y1: 0, y2: height - 20, stroke: "#8e8e93"}));
          [0, 0.25, 0.5, 0.75, 1].forEach((t, i) => {
            const anchor = flush && i === 0 ? "start" : flush && i === 4 ? "end" : "middle";
            chart.append(svg("text", {x: x(t * max), y: height - 6, "text-anchor": anchor, "font-size": 10, fill: "#6e6e73", text: percent(t * max, 0)}));
          });
        }

        // For a phone: each command's name and figures on a line of their own above its bars, across
        // the whole width, so the text keeps its size where the wide chart would be scaled down.
        function narrowRankChart(commands, max) {
          const width = 360, left = 4, right = 12, line = 17, bar = 11, gap = 9;
          const row = line + 2 * bar + gap;
          const height = commands.length * row + 24;
          const x = (v) => left + (v / max) * (width - left - right);
          const chart = svg("svg", {class: "narrow-chart", width: width, height: height, viewBox: "0 0 " + width + " " + height,
                                    role: "img", "aria-label": "share of selections and reach per command"});
          commands.forEach((c, i) => {
            const y = 2 + i * row;
            const name = c.command.length > 30 ? c.command.slice(0, 29) + "\u2026" : c.command;
            chart.append(svg("text", {x: left + 4, y: y + line - 5, "font-size": 13, fill: "#1d1d1f", text: name}));
            chart.append(svg("text", {x: width - 2, y: y + line - 5, "text-anchor": "end", "font-size": 12, fill: "#6e6e73",
                                      text: percent(c.share) + " / " + percent(c.reach)}));
            commandBars(chart, c, x, left, y + line, bar);
          });
          chartAxis(chart, x, left, height, max, true);
          return chart;
        }

        function rankChart(usage) {
          const commands = usage.commands.slice(0, 25);
          const label = 150, bar = 16, gap = 10, width = 680, plot = width - label - 120;
          const height = commands.length * (2 * bar + gap) + 24;
          const max = Math.max(0.05, ...commands.map((c) => Math.max(c.share_high, c.reach_high)));
          const x = (v) => label + (v / max) * plot;
          const chart = svg("svg", {class: "wide-chart", width: width, height: height, viewBox: "0 0 " + width + " " + height,
                                    role: "img", "aria-label": "share of selections and reach per command"});
          commands.forEach((c, i) => {
            const y = 4 + i * (2 * bar + gap);
            chart.append(svg("text", {x: label - 6, y: y + bar + 3, "text-anchor": "end", "font-size": 12, fill: "#1d1d1f", text: c.command}));
            commandBars(chart, c, x, label, y, bar);
            chart.append(svg("text", {x: x(Math.max(c.share_high, c.reach_high)) + 4, y: y + bar + 3, "font-size": 11, fill: "#6e6e73",
                                      text: percent(c.share) + " / " + percent(c.reach)}));
          });
          chartAxis(chart, x, label, height, max);
          const legend = h("div", {class: "legend"},
            h("span", {}, h("span", {class: "swatch", style: "background:#1d4ed8"}), "share of the element type's selections"),
            h("span", {}, h("span", {class: "swatch", style: "background:#93c5fd"}), "reach: share of its people who used the command"),
            h("span", {}, "line: 95% interval"));
          const more = usage.commands.length > commands.length
            ? h("p", {class: "note"}, "The chart shows the 25 most used of " + usage.commands.length + " commands; the table has them all.") : null;
          return [legend, chart, narrowRankChart(commands, max), more];
        }

        async function showElementType(elementType, params) {
          $("usage-app").hidden = true; $("usage-element").hidden = false;
          const data = await api(usageQuery(params, elementType));
          fillFilters(params, data);
          showFreshness(data);
          const back = new URLSearchParams(params); back.delete("element_type");
          $("element-back").setAttribute("href", "#/usage?" + back.toString());
          $("element-title").textContent = data.app + " " + elementType;
          const usage = data.element_types[0];
          $("element-extra").replaceChildren();
          if (!usage) {
            $("element-summary").textContent = data.freshness.uncounted_events > 0
              ? "No counted use from " + data.window.from + " to " + data.window.to + " yet: " + count(data.freshness.uncounted_events) + " stored events are waiting for the rollup."
              : "No use from " + data.window.from + " to " + data.window.to + " with these filters.";
            $("element-undeclared").hidden = true;
            $("rank-chart").replaceChildren();
            $("ranking").tBodies[0].replaceChildren();
          } else {
            $("element-summary").textContent = data.window.from + " to " + data.window.to + ": " + count(usage.selections) + " selections by " +
              count(usage.users) + " people; the menu was opened " + count(usage.opens) + " times and closed without a pick " +
              (usage.dismissal_rate === null ? "never" : percent(usage.dismissal_rate) + " of the time") + ".";
            const undeclared = $("element-undeclared");
            undeclared.hidden = !usage.undeclared_selections;
            undeclared.textContent = usage.undeclared_selections
              ? count(usage.undeclared_selections) + " selections name commands the manifest does not declare: " +
                usage.undeclared_commands.join(", ") + " (HIG-1). Declare them in the manifest, or fix the app's command ids." : "";
            $("rank-chart").replaceChildren(...rankChart(usage).filter((x) => x));
            const body = $("ranking").tBodies[0];
            body.replaceChildren(...usage.commands.map((c) => h("tr", {"data-command": c.command},
              h("td", {}, c.command), h("td", {class: "num"}, count(c.selections)), h("td", {class: "num"}, percent(c.share, 2)),
              h("td", {class: "num"}, percent(c.share_low, 2) + " - " + percent(c.share_high, 2)), h("td", {class: "num"}, count(c.user_days)),
              h("td", {class: "num"}, count(c.users) + " of " + count(usage.users)), h("td", {class: "num"}, percent(c.reach, 2)),
              h("td", {class: "num"}, percent(c.reach_low, 2) + " - " + percent(c.reach_high, 2)),
              h("td", {class: "num"}, c.trend ? signed(c.trend.percent_change) : "new"))));
            labelCells($("ranking"));
          }
          for (const extra of elementExtras) { await extra(data.app, elementType, $("element-extra"), params); }
        }

        $("element-back").addEventListener("click", (event) => { event.preventDefault(); go($("element-back").getAttribute("href")); });
        """#

    /// The proposals, by status (`GET /v1/admin/proposals`).
    static let proposalsScript = #"""
        // ==== Proposals list ====
        routes.proposals = async (parts) => {
          const status = parts[0] || "pending";
          for (const tab of document.querySelectorAll(".tab")) { tab.classList.toggle("active", tab.dataset.status === status); }
          const data = await api("/v1/admin/proposals?status=" + encodeURIComponent(status));
          const body = $("proposals").tBodies[0];
          body.replaceChildren();
          for (const p of data.proposals) {
            const row = h("tr", {class: "link", "data-id": p.id},
              h("td", {}, "#" + p.id), h("td", {}, p.app), h("td", {}, p.element_type), h("td", {}, p.status),
              h("td", {}, String(p.changed_items)), h("td", {}, p.created), h("td", {}, p.decided_by || ""));
            row.addEventListener("click", () => go("#/proposal/" + p.id));
            body.appendChild(row);
          }
          labelCells($("proposals"));
          $("empty").hidden = data.proposals.length > 0;
          show("list");
        };

        for (const tab of document.querySelectorAll(".tab")) {
          tab.addEventListener("click", () => go("#/proposals/" + tab.dataset.status));
        }
        """#

    /// Start: sign in with the stored token, follow the hash.
    static let startScript = #"""
        // ==== Start ====
        window.addEventListener("hashchange", route);
        if (token) { signIn(token); } else { show("login"); }
        """#
}
