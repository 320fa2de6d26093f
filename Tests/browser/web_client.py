#!/usr/bin/env python3
"""Drives the web example (examples/web-context-menu with clients/web/menurank.js) in real headless
Chromium against real `menurank serve` daemons, the page on one origin and the API on another:

- daemon A, the API, on 127.0.0.1 (stopped and started again on the same port by this script);
- daemon B on 127.0.0.2 serves the page (`--serve-example`), so the page stays loadable while A is down.

Steps, each recorded in the JSON printed at the end (the Swift test checks the database):
 1. preflight refused: the app lists no origin yet, so a POST from the page fails before it is sent
    (the DevTools network events show the CORS failure);
 2. preflight allowed once `menurank apps set` lists the page's origin; menus served with an ETag;
 3. right-click picks: a top-level command and a submenu's command, and a dismissal (Escape);
 4. A stopped; 500 picks by right-click while it is down (the layout from the last good copy),
    the page reloaded twice; A started again, with at most 100 events per request: the page sends
    what its journal holds, splitting its batch of 500 on 413;
 5. screenshots of the open menu with its submenu, at desktop and at phone width;
 6. Retry-After: A restarted with a 1-request bucket; the second batch gets 429 and the next
    attempt waits for Retry-After even though the page asks to flush at once;
 7. the rollout arm and the user hash against vectors computed here with hashlib;
 8. with --rollout-proposal: the proposal rolled out to 50% (`proposals accept --rollout`), and
    16 people's arms, chosen by the page from what the daemon serves, against hashlib's.

Reuses the DevTools client of review_page.py (a WebSocket written on the standard library), through
report_charts.py's RecordingBrowser, which keeps the events the page sends (network failures, exceptions).

    web_client.py --menurank BIN --database URL --app alpha --write-key K --read-key R \
                  --root CHECKOUT --screenshots DIR [--chromium PATH]
"""
import argparse, base64, hashlib, hmac, json, os, random, re, shutil, signal, struct, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_charts import RecordingBrowser  # noqa: E402  (review_page.py's DevTools client, keeping events)


class Page(RecordingBrowser):
    """The DevTools client with the mouse and keyboard of a person: right-clicks, hovers, keys."""

    def mouse(self, kind, x, y, button="left"):
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button=button,
                  clickCount=1 if kind != "mouseMoved" else 0)

    def press_at(self, x, y, button="left"):
        self.mouse("mousePressed", x, y, button)
        self.mouse("mouseReleased", x, y, button)

    def center(self, selector):
        return self.evaluate(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
            if (!e) return null; const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }})()""")

    def key(self, key, code, keycode):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code, windowsVirtualKeyCode=keycode)

    def screenshot(self, path):
        shot = self.call("Page.captureScreenshot", format="png")
        with open(path, "wb") as out:
            out.write(base64.b64decode(shot["data"]))


class Daemon:
    """`menurank serve` as a child process; its log in a file."""

    def __init__(self, binary, database, listen, extra, log):
        self.log_path = log
        start = os.path.getsize(log) if os.path.exists(log) else 0  # this run's lines only
        self.process = subprocess.Popen([binary, "serve", "--listen", listen, "--key-cache-ttl", "0s", *extra],
                                        env={**os.environ, "DATABASE_URL": database},
                                        stdout=subprocess.DEVNULL, stderr=open(log, "ab"))
        deadline = time.time() + 60
        while True:
            with open(log, errors="replace") as text:
                text.seek(start)
                found = re.findall(r"msg=\"?listening\"? .*port=(\d+)", text.read())
            if found:
                self.port = int(found[-1])
                break
            if self.process.poll() is not None or time.time() > deadline:
                raise RuntimeError("menurank serve did not start: " + open(log, errors="replace").read()[-2000:])
            time.sleep(0.05)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        if self.process.wait(timeout=60) != 0:
            raise RuntimeError(f"menurank serve exited {self.process.returncode}")


def run_cli(binary, database, *arguments):
    result = subprocess.run([binary, *arguments], env={**os.environ, "DATABASE_URL": database},
                            capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"menurank {' '.join(arguments)}: {result.stderr}")
    return result.stdout


def rollout_vectors(count=64):
    """Cases for the rollout arm (shared-contracts.md), the expected arm computed with hashlib: random
    salts and users (non-ASCII too), random shares, and shares at the exact line of each case (v/2^64,
    not in the arm; the next double up, in it)."""
    rng = random.Random(30)
    cases = []
    for i in range(count):
        salt = "%016x" % rng.getrandbits(64)
        user = rng.choice(["", "é-", "person-", "ユーザー"]) + "%x" % rng.getrandbits(48)
        v = int.from_bytes(hashlib.sha256(salt.encode() + b"\x00" + user.encode()).digest()[:8], "big")
        line = v / 2 ** 64
        for share in (rng.random(), line, _next_up(line), 0.0, 1.0):
            cases.append({"salt": salt, "user": user, "share": share, "expected": line < share})
    return cases


def _next_up(x):
    bits = struct.unpack("<q", struct.pack("<d", x))[0]
    return struct.unpack("<d", struct.pack("<q", bits + 1))[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--menurank", required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--app", required=True)
    parser.add_argument("--write-key", required=True)
    parser.add_argument("--read-key", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--screenshots")
    parser.add_argument("--logs", default="/tmp")
    parser.add_argument("--picks", type=int, default=500)
    parser.add_argument("--rollout-proposal", type=int, help="a pending proposal of mail.message to roll out to 50%%")
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    args = parser.parse_args()
    menurank, database = args.menurank, args.database
    log_a = os.path.join(args.logs, "web-client-api.log")
    log_b = os.path.join(args.logs, "web-client-page.log")
    for path in (log_a, log_b):
        open(path, "w").close()

    seen = {"recorded": []}
    api = Daemon(menurank, database, "127.0.0.1:0", [], log_a)
    api_url = f"http://127.0.0.1:{api.port}"
    site = Daemon(menurank, database, "127.0.0.2:0",
                  ["--serve-example", args.root, "--example-api", api_url], log_b)
    page_origin = f"http://127.0.0.2:{site.port}"
    page_url = (f"{page_origin}/example/?endpoint={api_url}&write_key={args.write_key}&read_key={args.read_key}"
                f"&user=person-1&salt=test-salt&journal=test")
    browser = Page(args.chromium)

    def load():
        browser.call("Page.navigate", url=page_url)
        wait_loaded()

    def wait_loaded():
        browser.wait_for("document.readyState === 'complete' && !!window.menurankExample && !!menurankExample.ready",
                         "the example page")
        browser.evaluate("menurankExample.ready")

    def collect():
        """What the page recorded since it loaded (kept over reloads here)."""
        seen["recorded"] += browser.evaluate("menurankExample.recorded.splice(0)")

    def pick(row, command):
        """A right-click on the row, then a click on the command's menu item."""
        browser.press_at(*row, button="right")
        at = browser.center(f'.menu [data-command="{command}"]')
        if at is None:
            raise RuntimeError(f"the menu has no {command} after a right-click (status: "
                               + str(browser.evaluate("document.getElementById('status').textContent")) + ")")
        browser.press_at(*at)

    try:
        browser.call("Page.enable")
        browser.call("Runtime.enable")
        browser.call("Network.enable")

        # 1. No origin listed: the page gets no menus, and a POST fails at its preflight.
        load()
        seen["status_unlisted"] = browser.evaluate("document.getElementById('status').textContent")
        browser.events.clear()
        seen["unlisted_post"] = browser.evaluate(f"""fetch({json.dumps(api_url + '/v1/events')}, {{method: "POST",
            headers: {{Authorization: "Bearer {args.write_key}", "Content-Type": "application/json"}},
            body: '{{"events": []}}'}}).then(r => "status " + r.status, e => "failed: " + e.name)""")
        time.sleep(0.3)
        browser.evaluate("1")  # collects the network events that arrived meanwhile
        seen["unlisted_cors_errors"] = sorted({e["params"].get("corsErrorStatus", {}).get("corsError", "")
                                               for e in browser.events if e["method"] == "Network.loadingFailed"} - {""})

        # 2. The origin listed: menus served, with an ETag; a POST's preflight passes.
        run_cli(menurank, database, "apps", "set", args.app, "--allowed-origin", page_origin)
        browser.call("Page.reload", ignoreCache=True)
        wait_loaded()
        seen["status_listed"] = browser.evaluate("document.getElementById('status').textContent")
        seen["layout"] = browser.evaluate("menurankExample.layouts['mail.message']")
        # One layout() per list: the first fetch gets 200 and an ETag, the second 304 with it.
        seen["menus_statuses"] = browser.evaluate(
            "menurankExample.requests.filter(r => r.path === '/v1/menus').map(r => r.status || r.error)")
        seen["listed_post"] = browser.evaluate(f"""fetch({json.dumps(api_url + '/v1/events')}, {{method: "POST",
            headers: {{Authorization: "Bearer {args.write_key}", "Content-Type": "application/json"}},
            body: '{{"events": []}}'}}).then(r => "status " + r.status, e => "failed: " + e.name)""")

        # 3. Right-click picks: a command, a submenu's command, and a dismissal.
        first_row = browser.center("#messages li:nth-child(1)")
        pick(first_row, "reply")
        browser.press_at(*first_row, button="right")
        browser.mouse("mouseMoved", *browser.center('.menu [data-submenu="Share"]'))
        browser.wait_for("document.querySelectorAll('.menu').length === 2", "the Share submenu")
        seen["submenu_items"] = browser.evaluate("[...document.querySelectorAll('.menu')[1].querySelectorAll('[data-command]')]"
                                                 ".map(e => e.dataset.command + '@' + e.dataset.position)")
        browser.press_at(*browser.center('.menu [data-command="copy_link"]'))
        browser.press_at(*first_row, button="right")
        browser.key("Escape", "Escape", 27)
        seen["flush_up"] = browser.evaluate("menurankExample.client.flush()")
        collect()

        # 4. The API daemon stops; 500 picks by right-click, two reloads; the daemon starts again.
        api.stop()
        rows = [browser.center(f"#messages li:nth-child({i})") for i in range(1, 6)]
        commands = ["reply", "reply_all", "forward", "move", "archive", "flag", "mark_unread", "open_message", "delete"]
        first_half = args.picks * 2 // 5
        for i in range(first_half):
            pick(rows[i % 5], commands[i % len(commands)])
        collect()
        browser.call("Page.reload")
        wait_loaded()
        seen["status_down"] = browser.evaluate("document.getElementById('status').textContent")
        seen["layout_down"] = browser.evaluate("menurankExample.layouts['mail.message']")
        seen["queued_after_reload"] = browser.evaluate("menurankExample.client.metrics.queued")
        for i in range(first_half, args.picks):
            pick(rows[i % 5], commands[i % len(commands)])
        # One more event, and pagehide in the same turn: its IndexedDB write cannot have committed,
        # so the page writes it to localStorage (its spill), which the next load moves to the journal.
        seen["spilled_at_pagehide"] = browser.evaluate("""(() => {
            const pick = {elementType: "mail.message", command: "flag", position: 5, latencyMs: 1, menuVersion: "2026.11.1",
                          trigger: "right_click"};
            const id = menurankExample.client.record(pick);
            menurankExample.recorded.push({...pick, id});
            dispatchEvent(new PageTransitionEvent("pagehide", {persisted: false}));
            return Object.keys(localStorage).filter(k => k.startsWith("menurank:test:spill:"))
                .flatMap(k => JSON.parse(localStorage.getItem(k))).some(entry => entry.key.endsWith(id)); })()""")
        collect()
        # Reloaded at once after the last pick.
        browser.call("Page.reload")
        wait_loaded()
        seen["queued_down"] = browser.evaluate("menurankExample.client.metrics.queued")
        seen["requests_down"] = browser.evaluate("menurankExample.requests.filter(r => r.path === '/v1/events').length")
        # Back with a cap of 100 events per request: the client's 500-event batch gets 413 and splits.
        api = Daemon(menurank, database, f"127.0.0.1:{api.port}", ["--max-events-per-batch", "100"], log_a)
        # flush() resolves once what it sent is acknowledged and out of the journal (or must wait).
        browser.wait_for("menurankExample.client.flush().then(m => m.queued === 0)",
                         "the journal to empty once the daemon is back", timeout=120)
        seen["metrics_after"] = browser.evaluate("menurankExample.client.metrics")
        seen["recovery_requests"] = browser.evaluate(
            "menurankExample.requests.filter(r => r.path === '/v1/events').map(r => [r.events, r.status || r.error])")

        # 5. Screenshots: a few picks, then the menu with its submenu open, desktop and phone width.
        if args.screenshots:
            for name, width, height, mobile in (("desktop", 1280, 800, False), ("phone", 390, 844, True)):
                browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                             deviceScaleFactor=2 if mobile else 1, mobile=mobile)
                browser.call("Page.reload")
                wait_loaded()
                for i, command in enumerate(("reply", "archive", "forward")):
                    pick(browser.center(f"#messages li:nth-child({i + 1})"), command)
                collect()
                row = browser.center("#messages li:nth-child(2)")
                browser.press_at(row[0] * 0.6, row[1], button="right")
                browser.mouse("mouseMoved", *browser.center('.menu [data-submenu="Share"]'))
                browser.wait_for("document.querySelectorAll('.menu').length === 2", "the Share submenu")
                browser.mouse("mouseMoved", *browser.center('.menu [data-command="copy_link"]'))
                browser.screenshot(os.path.join(args.screenshots, f"web-context-menu-{name}.png"))
                browser.key("Escape", "Escape", 27)
                collect()
            browser.call("Emulation.clearDeviceMetricsOverride")
        # 6. Retry-After: one request per 5 s for the key; the second batch is refused with 429.
        api.stop()
        api = Daemon(menurank, database, f"127.0.0.1:{api.port}", ["--rate-limit", "0.2", "--rate-burst", "1"], log_a)
        browser.call("Page.reload")
        wait_loaded()
        rows = [browser.center(f"#messages li:nth-child({i})") for i in range(1, 6)]
        pick(rows[0], "forward")
        browser.evaluate("menurankExample.client.flush()")
        pick(rows[1], "archive")
        browser.evaluate("menurankExample.client.flush()")
        # Asked to flush again at once: it must wait for the Retry-After all the same.
        browser.evaluate("menurankExample.client.flush()")
        browser.wait_for("menurankExample.client.flush().then(m => m.queued === 0)",
                         "the refused batch to go out after Retry-After", timeout=60)
        seen["retry_requests"] = browser.evaluate("menurankExample.requests.filter(r => r.path === '/v1/events')")
        collect()

        # 7. The rollout arm and the user hash against hashlib.
        cases = rollout_vectors()
        arms = browser.evaluate(f"""import('./menurank.js').then(m => Promise.all({json.dumps(cases)}
            .map(c => m.inRolloutArm(c.salt, c.user, c.share))))""")
        seen["rollout_cases"] = len(cases)
        seen["rollout_mismatches"] = [dict(case, got=got) for case, got in zip(cases, arms) if got != case["expected"]]
        seen["rollout_in_arm"] = sum(1 for case in cases if case["expected"])
        seen["user_hash"] = browser.evaluate("menurankExample.client.user")
        seen["user_hash_expected"] = hmac.new(b"test-salt", b"person-1", hashlib.sha256).hexdigest()

        # 8. A rollout served by the real daemon: each person's arm, from the salt it serves.
        if args.rollout_proposal:
            run_cli(menurank, database, "proposals", "accept", str(args.rollout_proposal), "--rollout", "50%",
                    "--note", "web client test")
            seen["rollout_live"] = []
            for i in range(16):
                user = f"person-{i}"
                browser.call("Page.navigate", url=page_url.replace("user=person-1", f"user={user}"))
                wait_loaded()
                got = browser.evaluate("""menurankExample.client.menus().then(served => ({
                    served: served.menus["mail.message"].rollout, layout: menurankExample.layouts["mail.message"],
                    user: menurankExample.client.user}))""")
                served = got["served"]
                hashed = hmac.new(b"test-salt", user.encode(), hashlib.sha256).hexdigest()
                v = int.from_bytes(hashlib.sha256(served["salt"].encode() + b"\x00" + hashed.encode()).digest()[:8], "big")
                layout = got["layout"]
                first = layout["groups"][0][0]["id"]
                seen["rollout_live"].append({
                    "user": user, "hashed": got["user"] == hashed, "expected": v / 2 ** 64 < served["share"],
                    "arm": (layout.get("rollout") or {}).get("arm"), "menu_version": layout["menuVersion"],
                    "rollout_menu_version": served["menu_version"], "first": first})
                pick(browser.center("#messages li:nth-child(1)"), first)
                collect()
            browser.wait_for("menurankExample.client.flush().then(m => m.queued === 0)", "the rollout picks to be sent")
        collect()
        seen["page_errors"] = [e["params"] for e in browser.events if e["method"] == "Runtime.exceptionThrown"]
    finally:
        browser.close()
        for daemon in (api, site):
            if daemon.process.poll() is None:
                daemon.stop()
    seen["page_origin"] = page_origin
    print(json.dumps(seen))


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # the reason, for the test's failure message
        print(f"web_client.py: {error}", file=sys.stderr)
        sys.exit(1)
