#!/usr/bin/env python3
"""Drives the review page of a running `menurank serve` in real headless Chromium, as a reviewer
would: sign in with an admin token, read the usage dashboard and an element type's ranking, filter
it, open a proposal, accept it with a note after confirming, see who decided it, and look at the
page at a phone's width; every console error, uncaught exception or refused resource is reported.
Two shorter flows (--flow) accept a proposal as a rollout, and read a running rollout on its element
type's page, widen it and promote it.

Speaks the Chrome DevTools Protocol over a WebSocket client written here on the standard library
(RFC 6455: handshake, masked client frames, fragmented server frames), so nothing is installed.

    review_page.py --url http://127.0.0.1:PORT --token mrk_a_... --proposal ID --note TEXT \
                   [--wrong-token mrk_w_...] [--element-type T] [--platform P] [--screenshots DIR]

Prints one JSON object with what the page showed; exits non-zero (with the reason on stderr) when
a step does not happen within its time limit.
"""
import argparse, base64, json, os, re, shutil, socket, struct, subprocess, sys, tempfile, time, urllib.request


class WebSocket:
    def __init__(self, url, timeout=60):
        match = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise RuntimeError("websocket handshake: connection closed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("websocket handshake refused: " + head.decode(errors="replace"))

    def send(self, text):
        payload = text.encode()
        header = bytearray([0x81])
        n = len(payload)
        if n < 126:
            header.append(0x80 | n)
        elif n < 65536:
            header.append(0x80 | 126); header += struct.pack(">H", n)
        else:
            header.append(0x80 | 127); header += struct.pack(">Q", n)
        mask = os.urandom(4)
        header += mask
        self.sock.sendall(bytes(header) + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _exactly(self, n):
        out = b""
        while len(out) < n:
            chunk = self.sock.recv(n - len(out))
            if not chunk:
                raise RuntimeError("websocket closed")
            out += chunk
        return out

    def receive(self):
        message = b""
        while True:
            b0, b1 = self._exactly(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._exactly(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._exactly(8))[0]
            mask = self._exactly(4) if b1 & 0x80 else None
            data = self._exactly(n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            opcode = b0 & 0x0F
            if opcode == 0x8:
                raise RuntimeError("websocket closed by the browser")
            if opcode == 0x9:  # ping: answer, keep reading
                continue
            message += data
            if b0 & 0x80:
                return message.decode()


class Browser:
    def __init__(self, binary):
        self.profile = tempfile.mkdtemp(prefix="menurank-chromium-")
        self.process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1",
             f"--user-data-dir={self.profile}", "--window-size=1200,1000", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 60
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.time() > deadline or self.process.poll() is not None:
                raise RuntimeError("chromium did not start: " + (self.process.stderr.read(4000).decode(errors="replace")
                                                                  if self.process.poll() is not None else "timeout"))
            time.sleep(0.1)
        port = int(open(port_file).read().split()[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30))
        page = next(t for t in targets if t.get("type") == "page")
        self.ws = WebSocket(page["webSocketDebuggerUrl"])
        self.next_id = 0
        # Console errors, uncaught exceptions and error log entries (CSP refusals among them).
        self.problems = []

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = json.loads(self.ws.receive())
            self._note(reply)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def _note(self, message):
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.exceptionThrown":
            self.problems.append("exception: " + json.dumps(params.get("exceptionDetails", {}))[:400])
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
            self.problems.append("console." + params["type"] + ": " + json.dumps(params.get("args", []))[:400])
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("error", "warning"):
            entry = params["entry"]
            self.problems.append("log " + entry.get("source", "") + ": " + entry.get("text", "")[:400])

    def page_clip(self):
        """The whole page at the current viewport width, for a full-page screenshot."""
        size = self.evaluate("[document.documentElement.clientWidth, document.documentElement.scrollHeight]")
        return {"x": 0, "y": 0, "width": size[0], "height": min(size[1], 4000), "scale": 1}

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError("page script failed: " + json.dumps(result["exceptionDetails"])[:500])
        return result["result"].get("value")

    def wait_for(self, expression, what, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        shown = self.evaluate("(document.getElementById('page-error') || {}).textContent || ''")
        raise RuntimeError(f"timed out waiting for {what} (page error: {shown!r}; console: {self.problems})")

    def click(self, selector):
        """A real mouse click at the middle of the element."""
        box = self.evaluate(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
            if (!e) {{ return null; }}
            e.scrollIntoView({{block: "center"}}); const r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2]; }})()""")
        if box is None:
            error = self.evaluate("document.getElementById('page-error').textContent")
            raise RuntimeError(f"no element {selector} to click (page error: {error!r}; console: {self.problems})")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)

    def type_into(self, selector, text):
        self.click(selector)
        self.call("Input.insertText", text=text)

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--proposal", type=int, default=0)
    parser.add_argument("--note", default="looks right")
    parser.add_argument("--wrong-token")
    parser.add_argument("--element-type", default="mail.message", help="the element type to open on the dashboard")
    parser.add_argument("--platform", help="a platform to filter the dashboard by")
    parser.add_argument("--from-day", help="the first day of the dashboard's window (YYYY-MM-DD)")
    parser.add_argument("--step", help="the step of the ladder to choose before accepting")
    parser.add_argument("--rollback-note", help="roll the accepted layout back with this note")
    parser.add_argument("--screenshots", help="a directory for screenshots of the main views (desktop and phone width)")
    parser.add_argument("--flow", default="review", choices=["review", "rollout-accept", "rollout-decide", "freshness"],
                        help="review: the whole tour above; rollout-accept: accept --proposal as a rollout to "
                             "--rollout-share percent of people; rollout-decide: on --element-type's page, read its "
                             "rollout, widen it to --rollout-share and promote it; freshness: read what --proposal's "
                             "page, then --element-type's page and its outcomes say of the rollups")
    parser.add_argument("--app", default="alpha")
    parser.add_argument("--rollout-share", type=int, default=20)
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    args = parser.parse_args()
    browser = Browser(args.chromium)
    seen = {}

    def shoot(name):
        if args.screenshots:
            browser.evaluate("window.scrollTo(0, 0)")
            time.sleep(0.2)
            shot = browser.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                                clip=browser.page_clip())
            with open(os.path.join(args.screenshots, name + ".png"), "wb") as out:
                out.write(base64.b64decode(shot["data"]))

    def shown():
        """Waits until the view of the current location is drawn."""
        browser.wait_for("document.body.dataset.shown && document.body.dataset.shown === (location.hash || '#')",
                         "the view of " + str(browser.evaluate("location.hash")))

    def text(selector):
        return browser.evaluate(f"(document.querySelector({json.dumps(selector)}) || {{}}).textContent || null")

    def sign_in(hash="", ready="!document.getElementById('usage').hidden", what="the dashboard"):
        """Opens the page at `hash`, signs in and waits until `ready` (the view of `hash`) is drawn."""
        browser.call("Page.enable")
        browser.call("Runtime.enable")
        browser.call("Log.enable")
        browser.call("Page.navigate", url=args.url + "/admin" + hash)
        browser.wait_for("document.readyState === 'complete' && !!document.getElementById('token')", "the sign-in form")
        browser.type_into("#token", args.token)
        browser.click("#login-button")
        browser.wait_for(ready, what)
        shown()

    def confirm(button):
        """Clicks `button`, reads the confirmation and says yes."""
        browser.click(button)
        browser.wait_for("document.getElementById('confirm').open", "the confirmation of " + button)
        question = text("#confirm-text")
        browser.click("#confirm-yes")
        browser.wait_for("!document.getElementById('confirm').open", "the confirmation to close")
        return question

    def finish():
        time.sleep(0.3)
        browser.evaluate("1")  # collects the events that arrived meanwhile
        seen["console_problems"] = list(browser.problems)

    def freshness_flow():
        # Straight to the proposal (the dashboard would count what is pending first).
        sign_in(f"#/proposal/{args.proposal}",
                "!document.getElementById('detail').hidden && !!document.getElementById('fact-rollups-now')",
                "the proposal's page")
        seen["proposal_rollups"] = text("#fact-rollups-now")
        browser.evaluate(f"location.hash = '#/usage/{args.element_type}?app={args.app}'")
        browser.wait_for("!!document.getElementById('outcomes-freshness')", "the element type's outcomes")
        shown()
        seen["element_freshness"] = text("#freshness")
        seen["outcomes_freshness"] = text("#outcomes-freshness")

    def rollout_accept_flow():
        sign_in()
        browser.evaluate(f"location.hash = '#/proposal/{args.proposal}'")
        browser.wait_for("!document.getElementById('detail').hidden && "
                         "document.getElementById('diff').textContent.length > 0", "the proposal's page")
        shown()
        browser.type_into("#note", args.note)
        browser.click("#as-rollout")
        browser.evaluate(f"document.getElementById('rollout-share').value = '{args.rollout_share}'")
        seen["confirm_text"] = confirm("#accept")
        browser.wait_for("(document.getElementById('fact-status') || {}).textContent === 'accepted'", "the accepted status")
        seen["status_after"] = text("#fact-status")
        seen["note"] = text("#fact-note")
        seen["decision_body"] = browser.evaluate("document.body.dataset.lastDecision || null")

    def rollout_decide_flow():
        rollout_view = ("(() => { const r = document.querySelector('#rollouts .rollout'); if (!r) { return null; } "
                        "return {id: r.id, status: r.dataset.status, state: r.querySelector('.rollout-state').textContent, "
                        "verdict: r.querySelector('.verdict').textContent, "
                        "people: (r.querySelector('.rollout-people') || {}).textContent || null, "
                        "metrics: [...r.querySelectorAll('table.look tbody tr')].map(x => [...x.cells].map(c => c.textContent)), "
                        "charts: [...((r.querySelector('.rollout-charts').shadowRoot || {querySelectorAll: () => []})"
                        ".querySelectorAll('figure svg polyline.estimate'))].length, "
                        "decisions: (r.querySelector('.rollout-decisions') || {}).textContent || null}; })()")
        sign_in()
        browser.evaluate(f"location.hash = '#/usage/{args.element_type}?app={args.app}'")
        browser.wait_for("!!document.querySelector('#rollouts .rollout')", "the rollout section")
        shown()
        seen["rollout"] = browser.evaluate(rollout_view)
        seen["column_names"] = browser.evaluate(
            "[...document.querySelectorAll('#rollouts table.look thead th')].map(c => c.textContent)")
        seen["outcome_versions"] = browser.evaluate(
            "[...document.querySelectorAll('#outcome-versions tbody tr')].map(r => [...r.cells].map(c => c.textContent))")
        seen["freshness"] = text("#freshness")
        browser.evaluate("document.getElementById('rollouts').scrollIntoView()")
        shoot("element-type-rollout")
        browser.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)
        time.sleep(0.3)
        seen["phone_overflow"] = browser.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        shoot("phone-rollout")
        browser.call("Emulation.clearDeviceMetricsOverride")
        time.sleep(0.3)
        rollout_id = seen["rollout"]["id"].split("-")[1]
        # A decision without a reason is refused on the page; then widen, then promote.
        browser.click(f"#rollout-widen-{rollout_id}")
        seen["without_note"] = browser.wait_for(f"document.getElementById('rollout-error-{rollout_id}').textContent",
                                                "the request for a reason")
        browser.type_into(f"#rollout-note-{rollout_id}", "looks faster")
        browser.evaluate(f"document.getElementById('rollout-share-{rollout_id}').value = '{args.rollout_share}'")
        seen["widen_confirm"] = confirm(f"#rollout-widen-{rollout_id}")
        browser.wait_for(f"(document.querySelector('#rollouts .rollout-state') || {{}}).textContent && "
                         f"document.querySelector('#rollouts .rollout-state').textContent.includes('{args.rollout_share}% of people')",
                         "the widened rollout")
        shown()
        seen["widened"] = browser.evaluate(rollout_view)
        browser.type_into(f"#rollout-note-{rollout_id}", "better on every look")
        seen["promote_confirm"] = confirm(f"#rollout-promote-{rollout_id}")
        browser.wait_for("(document.querySelector('#rollouts .rollout') || {dataset: {}}).dataset.status === 'promoted'",
                         "the promoted rollout")
        shown()
        seen["promoted"] = browser.evaluate(rollout_view)
        seen["actions_gone"] = browser.evaluate("!document.querySelector('#rollouts .rollout-actions')")
        seen["layout_current"] = text("#layout-current")

    flows = {"freshness": freshness_flow, "rollout-accept": rollout_accept_flow, "rollout-decide": rollout_decide_flow}
    if args.flow in flows:
        try:
            flows[args.flow]()
            finish()
        finally:
            browser.close()
        print(json.dumps(seen))
        return

    try:
        browser.call("Page.enable")
        browser.call("Runtime.enable")
        browser.call("Log.enable")
        browser.call("Page.navigate", url=args.url + "/admin")
        browser.wait_for("document.readyState === 'complete' && !!document.getElementById('token')", "the sign-in form")
        if args.wrong_token:
            browser.type_into("#token", args.wrong_token)
            browser.click("#login-button")
            seen["wrong_token_error"] = browser.wait_for(
                "document.getElementById('login-error').textContent", "the refusal of a wrong token")
            browser.evaluate("document.getElementById('token').value = ''")
        shoot("sign-in")
        # From here on, the page must log no error at all (the wrong token's 401 is expected above).
        browser.problems.clear()
        browser.type_into("#token", args.token)
        browser.click("#login-button")

        # The dashboard: element types of the first app, with their daily trend.
        row = f"#element-types tbody tr[data-element-type={json.dumps(args.element_type)}]"
        browser.wait_for(f"!document.getElementById('usage').hidden && !!document.querySelector({json.dumps(row)})",
                         "the element type on the dashboard")
        shown()
        if args.from_day:
            browser.evaluate(f"document.getElementById('f-from').value = {json.dumps(args.from_day)}")
            browser.click("#f-apply")
            browser.wait_for(f"location.hash.includes('from={args.from_day}')", "the new window")
            shown()
        seen["who"] = browser.evaluate("document.getElementById('who').textContent")
        seen["storage_token"] = browser.evaluate("sessionStorage.getItem('menurank-token') !== null")
        seen["cookies"] = browser.evaluate("document.cookie")
        seen["usage_title"] = text("#usage-title")
        seen["dashboard_rows"] = browser.evaluate(
            "[...document.querySelectorAll('#element-types tbody tr')].map(r => [...r.cells].map(c => c.textContent))")
        seen["sparklines"] = browser.evaluate("document.querySelectorAll('#element-types tbody svg polyline').length")
        shoot("dashboard")

        # An element type's page: its ranking as a chart with a legend and a table.
        browser.click(row)
        browser.wait_for("location.hash.startsWith('#/usage/')", "the element type's page")
        shown()
        seen["element_title"] = text("#element-title")
        seen["ranking"] = browser.evaluate(
            "[...document.querySelectorAll('#ranking tbody tr')].map(r => [...r.cells].map(c => c.textContent))")
        seen["chart_bars"] = browser.evaluate("document.querySelectorAll('#rank-chart svg rect').length")
        seen["legend"] = text("#rank-chart .legend")
        if args.platform:
            browser.evaluate(f"document.getElementById('f-platform').value = {json.dumps(args.platform)}")
            browser.click("#f-apply")
            browser.wait_for(f"location.hash.includes('platform={args.platform}')", "the filtered ranking")
            shown()
            seen["filtered_summary"] = text("#element-summary")
            seen["filtered_ranking"] = browser.evaluate(
                "[...document.querySelectorAll('#ranking tbody tr')].map(r => [...r.cells].map(c => c.textContent))")
        shoot("element-type")

        # The proposal, from the list.
        browser.click("#nav-proposals")
        prow = f"#proposals tbody tr[data-id='{args.proposal}']"
        browser.wait_for(f"!document.getElementById('list').hidden && !!document.querySelector({json.dumps(prow)})",
                         f"proposal #{args.proposal} in the list")
        seen["listed"] = browser.evaluate(
            "[...document.querySelectorAll('#proposals tbody tr')].map(r => r.dataset.id)")
        browser.click(prow)
        browser.wait_for("!document.getElementById('detail').hidden && "
                         "document.getElementById('diff').textContent.length > 0", "the proposal's page")
        seen["title"] = text("#detail-title")
        seen["diff"] = browser.evaluate("document.getElementById('diff').textContent")
        seen["served_after_accept"] = browser.evaluate("document.getElementById('served').textContent")
        seen["served_collapsed"] = browser.evaluate("!document.getElementById('served-box').open")
        seen["chart_bars_report"] = browser.wait_for(
            "((document.getElementById('charts').shadowRoot || {querySelectorAll: () => []})"
            ".querySelectorAll('svg rect')).length", "the charts")
        seen["report_steps"] = browser.evaluate(
            "[...((document.getElementById('charts').shadowRoot || {querySelectorAll: () => []})"
            ".querySelectorAll('ul.ladder li'))].map(e => e.textContent)")
        seen["status_before"] = text("#fact-status")
        seen["summary"] = text("#summary")
        seen["current_menu"] = browser.evaluate(
            "[...document.querySelectorAll('#proposal-body .menu-col:first-child .menu > .item, "
            "#proposal-body .menu-col:first-child .menu > .sep, #proposal-body .menu-col:first-child .submenu > .item')]"
            ".map(e => e.classList.contains('sep') ? '|' : e.textContent)")
        seen["proposed_items"] = browser.evaluate(
            "[...document.querySelectorAll('#proposed-menu .item[data-command]')].map(e => e.dataset.command)")
        seen["destructive"] = browser.evaluate(
            "[...document.querySelectorAll('#proposal-body .item.destructive')].map(e => e.dataset.command)")
        seen["pruned"] = text("#proposed-menu .pruned")
        seen["reasons"] = browser.evaluate(
            "[...document.querySelectorAll('#reasons li')].map(e => e.textContent)")
        seen["evidence"] = text("#evidence")
        seen["details_closed"] = browser.evaluate("!document.getElementById('evidence-details').open")
        seen["details_text"] = text("#evidence-details")
        seen["steps"] = browser.evaluate(
            "[...document.querySelectorAll('#ladder .step')].map(e => [e.dataset.step, e.textContent])")
        shoot("proposal")
        if args.step:
            browser.click(f"#step-{args.step}")
            browser.wait_for(f"document.querySelector('#ladder .step.chosen') && "
                             f"document.querySelector('#ladder .step.chosen').dataset.step === {json.dumps(args.step)}",
                             "the chosen step")
            seen["step_items"] = browser.evaluate(
                "[...document.querySelectorAll('#proposed-menu .item[data-command]')].map(e => e.dataset.command)")
            shoot("proposal-step")
        browser.type_into("#note", args.note)

        # Accept: a confirmation first; cancelling changes nothing.
        browser.click("#accept")
        browser.wait_for("document.getElementById('confirm').open", "the confirmation")
        seen["confirm_text"] = text("#confirm-text")
        browser.click("#confirm-no")
        browser.wait_for("!document.getElementById('confirm').open", "the confirmation to close")
        seen["status_after_cancel"] = text("#fact-status")
        browser.click("#accept")
        browser.wait_for("document.getElementById('confirm').open", "the confirmation")
        browser.click("#confirm-yes")
        browser.wait_for("(document.getElementById('fact-status') || {}).textContent === 'accepted'", "the accepted status")
        seen["status_after"] = text("#fact-status")
        seen["decided_by"] = text("#fact-decided-by")
        seen["note"] = text("#fact-note")
        seen["decide_hidden"] = browser.evaluate("document.getElementById('decide').hidden")
        seen["decision_body"] = browser.evaluate("document.body.dataset.lastDecision || null")

        # Undo: the element type's page shows the served layout and rolls it back after confirming.
        if args.rollback_note:
            browser.click("#element-link")
            browser.wait_for("location.hash.startsWith('#/usage/')", "the element type's page")
            shown()
            seen["layout_before_rollback"] = text("#layout-current")
            shoot("element-type-layouts")
            browser.type_into("#rollback-note", args.rollback_note)
            browser.click("#rollback")
            browser.wait_for("document.getElementById('confirm').open", "the rollback's confirmation")
            seen["rollback_confirm"] = text("#confirm-text")
            browser.click("#confirm-yes")
            browser.wait_for("(document.getElementById('layout-current') || {}).textContent && "
                             "document.getElementById('layout-current').textContent.includes('rollback')", "the rolled back layout")
            shown()
            seen["layout_after_rollback"] = text("#layout-current")
            seen["rollbacks"] = text("#rollbacks")
            seen["rollback_button_gone"] = browser.evaluate("!document.getElementById('rollback')")

        # A phone's width: the dashboard and the proposal still fit (no sideways scrolling of the page).
        browser.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=1, mobile=True)
        time.sleep(0.3)
        # (After a rollback the element type's page is shown: back to the proposal first.)
        browser.evaluate(f"location.hash = '#/proposal/{args.proposal}'")
        browser.wait_for("!document.getElementById('detail').hidden && !!document.getElementById('ladder')",
                         "the proposal at a phone's width")
        shown()
        seen["phone_overflow_proposal"] = browser.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        shoot("phone-proposal")
        browser.click("#nav-usage")
        browser.wait_for("!document.getElementById('usage').hidden && "
                         "document.querySelectorAll('#element-types tbody tr').length > 0", "the dashboard at a phone's width")
        seen["phone_overflow_dashboard"] = browser.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        shoot("phone-dashboard")
        # An element type's ranking at a phone's width: labels above the bars, at their own size.
        browser.click(row)
        browser.wait_for("location.hash.startsWith('#/usage/') && !!document.querySelector('#rank-chart svg.narrow-chart')",
                         "the element type's page at a phone's width")
        shown()
        seen["phone_chart"] = browser.evaluate(
            "(() => { const wide = document.querySelector('#rank-chart svg.wide-chart'); "
            "const narrow = document.querySelector('#rank-chart svg.narrow-chart'); "
            "const label = narrow.querySelector('text'); "
            "return {wide_shown: getComputedStyle(wide).display !== 'none', narrow_shown: getComputedStyle(narrow).display !== 'none', "
            "narrow_width: Math.round(narrow.getBoundingClientRect().width), "
            "label_height: Math.round(label.getBoundingClientRect().height), label: label.textContent}; })()")
        seen["phone_overflow_element"] = browser.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        shoot("phone-element-type")
        browser.call("Emulation.clearDeviceMetricsOverride")
        time.sleep(0.3)
        seen["desktop_chart_wide_shown"] = browser.evaluate(
            "getComputedStyle(document.querySelector('#rank-chart svg.wide-chart')).display !== 'none' && "
            "getComputedStyle(document.querySelector('#rank-chart svg.narrow-chart')).display === 'none'")
        time.sleep(0.3)
        browser.evaluate("1")  # collects the events that arrived meanwhile
        seen["console_problems"] = list(browser.problems)
    finally:
        browser.close()
    print(json.dumps(seen))


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # the reason, for the test's failure message
        print(f"review_page.py: {error}", file=sys.stderr)
        sys.exit(1)
