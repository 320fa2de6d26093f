import Foundation
import HTTP
import Hashing

/// `GET /admin`: the review page, one self-contained HTML document (inline CSS and script, no
/// external assets) over the admin API. The reviewer signs in with an admin token, which the page
/// keeps in the tab's session storage and sends as a bearer header (no cookie, so no cross-site
/// request can act with it). Text from the data is only ever set as `textContent`; the charts come
/// from `GET /v1/admin/reports/ID`, parsed inert and shown in a shadow root. The Content-Security-Policy
/// allows exactly this page's script (by its hash) and requests to the daemon itself.
enum AdminPage {
    static let response: HTTPResponse = {
        let hash = Data(SHA256.hash(script)).base64EncodedString()
        let policy = "default-src 'none'; script-src 'sha256-\(hash)'; style-src 'unsafe-inline'; "
            + "connect-src 'self'; img-src data:; frame-ancestors 'none'; "
            + "base-uri 'none'; form-action 'none'"
        return HTTPResponse(status: 200, headers: [
            "Content-Type": "text/html; charset=utf-8",
            "Content-Security-Policy": policy,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-cache",
        ], body: Array(html.utf8))
    }()

    static let html = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>menurank review</title>
        <style>
        \(css)
        </style>
        </head>
        <body>
        <header><h1>menurank review</h1><span id="who"></span> <button id="signout" hidden>Sign out</button></header>
        <section id="login">
          <h2>Sign in</h2>
          <p>Paste an admin token (<code>menurank tokens create NAME</code> prints one).</p>
          <form id="login-form"><input id="token" type="password" autocomplete="off" size="48" placeholder="mrk_a_...">
          <button id="login-button" type="submit">Sign in</button></form>
          <p id="login-error" class="error" role="alert"></p>
        </section>
        <section id="list" hidden>
          <nav id="tabs">
            <button data-status="pending" class="tab">Pending</button>
            <button data-status="accepted" class="tab">Accepted</button>
            <button data-status="rejected" class="tab">Rejected</button>
            <button data-status="superseded" class="tab">Superseded</button>
            <button data-status="all" class="tab">All</button>
          </nav>
          <table id="proposals"><thead><tr><th>#</th><th>app</th><th>element type</th><th>status</th>
          <th>changed items</th><th>created</th><th>decided by</th></tr></thead><tbody></tbody></table>
          <p id="empty" hidden>No proposals with this status.</p>
        </section>
        <section id="detail" hidden>
          <p><a href="#" id="back">&larr; all proposals</a></p>
          <h2 id="detail-title"></h2>
          <dl id="facts"></dl>
          <div id="decide" hidden>
            <label for="note">Note</label><br>
            <textarea id="note" rows="2" cols="60" maxlength="2000"></textarea><br>
            <label for="keep-pruned">Keep pruned commands in a submenu titled (optional)</label><br>
            <input id="keep-pruned" size="40" maxlength="64" placeholder="e.g. Print &amp; Export"><br>
            <button id="accept" class="accept">Accept</button> <button id="reject" class="reject">Reject</button>
            <span id="decide-error" class="error" role="alert"></span>
          </div>
          <h3>Diff</h3>
          <pre id="diff"></pre>
          <details id="served-box"><summary>What GET /v1/menus will serve once accepted</summary><pre id="served"></pre></details>
          <h3>Use per command</h3>
          <div id="charts"></div>
        </section>
        <script>\(script)</script>
        </body>
        </html>

        """

    static let css = """
        body { font: 14px/1.45 -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d1d1f; margin: 1em auto; max-width: 70em; padding: 0 1em; }
        header { display: flex; gap: 1em; align-items: baseline; border-bottom: 1px solid #d2d2d7; }
        h1 { font-size: 1.4em; margin: 0.3em 0; flex: 1; }
        table { border-collapse: collapse; width: 100%; margin-top: 0.8em; }
        th, td { text-align: left; padding: 0.3em 0.6em; border-bottom: 1px solid #ececf0; }
        tbody tr { cursor: pointer; } tbody tr:hover { background: #f5f5f7; }
        .tab { border: 1px solid #d2d2d7; background: #fff; padding: 0.3em 0.9em; border-radius: 1em; cursor: pointer; }
        .tab.active { background: #1d1d1f; color: #fff; }
        pre { background: #f5f5f7; padding: 0.8em; overflow-x: auto; font: 12px/1.4 ui-monospace, Menlo, Consolas, monospace; }
        dl { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
        dt { color: #6e6e73; }
        .error { color: #b00020; }
        .accept { background: #1a7f37; color: #fff; border: 0; padding: 0.4em 1.2em; border-radius: 0.3em; cursor: pointer; }
        .reject { background: #b00020; color: #fff; border: 0; padding: 0.4em 1.2em; border-radius: 0.3em; cursor: pointer; }
        #charts { border: 1px solid #d2d2d7; padding: 0 1em; }
        """

    static let script = """

        "use strict";
        const $ = (id) => document.getElementById(id);
        let token = sessionStorage.getItem("menurank-token") || "";
        let status = "pending";

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

        function show(section) {
          for (const id of ["login", "list", "detail"]) { $(id).hidden = id !== section; }
          $("signout").hidden = section === "login";
        }

        function cell(row, text) { const td = document.createElement("td"); td.textContent = text; row.appendChild(td); }

        async function signIn(candidate) {
          token = candidate;
          try {
            const session = await api("/v1/admin/session");
            sessionStorage.setItem("menurank-token", token);
            $("who").textContent = "Signed in as " + session.name + (session.app ? " (app " + session.app + ")" : " (all apps)");
            $("login-error").textContent = "";
            await loadList();
          } catch (error) {
            token = ""; sessionStorage.removeItem("menurank-token");
            $("login-error").textContent = error.message;
            show("login");
          }
        }

        async function loadList() {
          for (const tab of document.querySelectorAll(".tab")) { tab.classList.toggle("active", tab.dataset.status === status); }
          const data = await api("/v1/admin/proposals?status=" + encodeURIComponent(status));
          const body = $("proposals").tBodies[0];
          body.replaceChildren();
          for (const p of data.proposals) {
            const row = document.createElement("tr");
            row.dataset.id = String(p.id);
            cell(row, "#" + p.id); cell(row, p.app); cell(row, p.element_type); cell(row, p.status);
            cell(row, String(p.changed_items)); cell(row, p.created); cell(row, p.decided_by || "");
            row.addEventListener("click", () => openProposal(p.id));
            body.appendChild(row);
          }
          $("empty").hidden = data.proposals.length > 0;
          show("list");
        }

        async function openProposal(id) {
          const p = await api("/v1/admin/proposals/" + id);
          $("detail-title").textContent = "Proposal #" + p.id + ": " + p.app + " " + p.element_type;
          const facts = $("facts");
          facts.replaceChildren();
          const rows = [["status", p.status], ["created", p.created], ["window", p.window.from + " to " + p.window.to],
                        ["base layout version", String(p.base_layout_version)]];
          if (p.decided) { rows.push(["decided", p.decided]); }
          if (p.decided_by) { rows.push(["decided by", p.decided_by]); }
          if (p.note) { rows.push(["note", p.note]); }
          for (const [name, value] of rows) {
            const dt = document.createElement("dt"); dt.textContent = name;
            const dd = document.createElement("dd"); dd.textContent = value; dd.id = "fact-" + name.replace(/ /g, "-");
            facts.append(dt, dd);
          }
          $("diff").textContent = p.diff;
          $("served-box").hidden = !p.served_after_accept;
          $("served").textContent = p.served_after_accept ? JSON.stringify(p.served_after_accept, null, 2) : "";
          $("decide").hidden = p.status !== "pending";
          $("decide").dataset.id = String(p.id);
          $("decide-error").textContent = "";
          $("note").value = "";
          $("keep-pruned").value = "";
          show("detail");
          // The report's page, parsed inert (no script runs: DOMParser, and this page's policy) and
          // shown in a shadow root so that its styles stay its own.
          const response = await fetch("/v1/admin/reports/" + id, {headers: {"Authorization": "Bearer " + token}});
          const root = $("charts").shadowRoot || $("charts").attachShadow({mode: "open"});
          root.replaceChildren();
          if (response.ok) {
            const report = new DOMParser().parseFromString(await response.text(), "text/html");
            root.append(...report.head.querySelectorAll("style"), ...report.body.childNodes);
          }
        }

        async function decide(decision) {
          const id = $("decide").dataset.id;
          try {
            await api("/v1/admin/proposals/" + id, {method: "POST", headers: {"Content-Type": "application/json"},
                      body: JSON.stringify({decision: decision, note: $("note").value,
                                            keep_pruned: decision === "accept" ? $("keep-pruned").value.trim() : ""})});
            await openProposal(id);
          } catch (error) {
            $("decide-error").textContent = error.message;
          }
        }

        $("login-form").addEventListener("submit", (event) => { event.preventDefault(); signIn($("token").value.trim()); });
        $("signout").addEventListener("click", () => { token = ""; sessionStorage.removeItem("menurank-token"); $("who").textContent = ""; show("login"); });
        $("back").addEventListener("click", (event) => { event.preventDefault(); loadList(); });
        $("accept").addEventListener("click", () => decide("accept"));
        $("reject").addEventListener("click", () => decide("reject"));
        for (const tab of document.querySelectorAll(".tab")) {
          tab.addEventListener("click", () => { status = tab.dataset.status; loadList(); });
        }
        if (token) { signIn(token); } else { show("login"); }

        """
}
