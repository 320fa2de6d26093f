import Foundation
import HTTP
import Hashing

/// `GET /admin`: the review page, one self-contained HTML document (inline CSS and script, no
/// external assets) over the admin API: the usage dashboard (apps, element types, rankings,
/// filters), the proposals and each proposal drawn as menus. The reviewer signs in with an admin
/// token, which the page keeps in the tab's session storage and sends as a bearer header (no
/// cookie, so no cross-site request can act with it). Text from the data is only ever set as
/// `textContent`; charts are SVG elements built by the script; the proposal's report charts
/// come from `GET /v1/admin/reports/ID`, parsed inert and shown in a shadow root. The
/// Content-Security-Policy allows exactly this page's script (by its hash) and requests to the
/// daemon itself.
///
/// The parts: this file (the response and the HTML), `AdminPage+Style.swift` (the CSS) and
/// `AdminPage+Script.swift` (the script, in sections: one per view, each with its own route; the
/// proposal, layout and rollout sections each in a file of their own).
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
        <title>menurank</title>
        <style>
        \(css)
        </style>
        </head>
        <body>
        <header>
          <h1>menurank</h1>
          <nav id="nav" hidden><a href="#/usage" id="nav-usage">Usage</a> <a href="#/proposals/pending" id="nav-proposals">Proposals</a></nav>
          <span id="who"></span> <button id="signout" hidden>Sign out</button>
        </header>
        <p id="page-error" class="error" role="alert" hidden></p>
        <section id="login">
          <h2>Sign in</h2>
          <p>Paste an admin token (<code>menurank tokens create NAME</code> prints one).</p>
          <form id="login-form"><input id="token" type="password" autocomplete="off" size="48" placeholder="mrk_a_...">
          <button id="login-button" type="submit">Sign in</button></form>
          <p id="login-error" class="error" role="alert"></p>
        </section>
        <section id="usage" hidden>
          <form id="filters" class="filters">
            <label>App <select id="f-app"></select></label>
            <label>From <input id="f-from" type="date"></label>
            <label>To <input id="f-to" type="date"></label>
            <label>Platform <select id="f-platform"><option value="">all platforms</option></select></label>
            <label>From app version <input id="f-version" list="f-versions" size="8" placeholder="any"></label>
            <datalist id="f-versions"></datalist>
            <label class="check"><input id="f-test" type="checkbox"> include test events</label>
            <button id="f-apply" type="submit">Apply</button>
          </form>
          <p id="freshness" class="note" hidden></p>
          <div id="usage-app">
            <h2 id="usage-title"></h2>
            <p id="usage-summary" class="note"></p>
            <div class="scroll"><table id="element-types" class="stack"><thead><tr><th>element type</th><th class="num">selections</th>
            <th class="num">people</th><th class="num">dismissal rate</th><th>daily selections</th><th class="num">trend</th>
            <th class="num">undeclared</th></tr></thead><tbody></tbody></table></div>
            <p id="usage-empty" hidden></p>
          </div>
          <div id="usage-element" hidden>
            <p><a href="#" id="element-back">&larr; all element types</a></p>
            <h2 id="element-title"></h2>
            <p id="element-summary" class="note"></p>
            <p id="element-undeclared" class="warning" hidden></p>
            <h3>Use per command</h3>
            <div id="rank-chart" class="chart"></div>
            <div class="scroll"><table id="ranking" class="stack"><thead><tr><th>command</th><th class="num">selections</th>
            <th class="num">share</th><th class="num">95% interval</th><th class="num">user-days</th><th class="num">people</th>
            <th class="num">reach</th><th class="num">95% interval</th><th class="num">trend</th></tr></thead><tbody></tbody></table></div>
            <div id="element-extra"></div>
          </div>
        </section>
        <section id="list" hidden>
          <nav id="tabs">
            <button data-status="pending" class="tab">Pending</button>
            <button data-status="accepted" class="tab">Accepted</button>
            <button data-status="rejected" class="tab">Rejected</button>
            <button data-status="superseded" class="tab">Superseded</button>
            <button data-status="all" class="tab">All</button>
          </nav>
          <div class="scroll"><table id="proposals" class="stack"><thead><tr><th>#</th><th>app</th><th>element type</th><th>status</th>
          <th>changed items</th><th>created</th><th>decided by</th></tr></thead><tbody></tbody></table></div>
          <p id="empty" hidden>No proposals with this status.</p>
        </section>
        <section id="detail" hidden>
          <p><a href="#/proposals/pending" id="back">&larr; all proposals</a> &middot; <a href="#/usage" id="element-link">use and history of this element type</a></p>
          <h2 id="detail-title"></h2>
          <dl id="facts"></dl>
          <div id="proposal-body"></div>
          <div id="decide" hidden>
            <h3>Decide</h3>
            <label for="note">Note</label><br>
            <textarea id="note" rows="2" maxlength="2000"></textarea><br>
            <label for="keep-pruned">Keep pruned commands in a submenu titled (optional)</label><br>
            <input id="keep-pruned" size="40" maxlength="64" placeholder="e.g. Print &amp; Export"><br>
            <label class="check"><input id="as-rollout" type="checkbox"> Roll out first: serve it to
            <input id="rollout-share" type="number" min="1" max="99" step="1" value="20" size="3"> % of people and compare</label><br>
            <button id="accept" class="accept">Accept&hellip;</button> <button id="reject" class="reject">Reject</button>
            <span id="decide-error" class="error" role="alert"></span>
          </div>
          <h3>Diff</h3>
          <details id="diff-box"><summary>The diff as text</summary><pre id="diff"></pre></details>
          <details id="served-box"><summary>What GET /v1/menus will serve once accepted (JSON)</summary><pre id="served"></pre></details>
          <h3>Use per command</h3>
          <div id="charts"></div>
        </section>
        <dialog id="confirm">
          <p id="confirm-text"></p>
          <button id="confirm-yes" class="accept">Yes</button> <button id="confirm-no">Cancel</button>
        </dialog>
        <script>\(script)</script>
        </body>
        </html>

        """
}
