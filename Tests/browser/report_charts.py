#!/usr/bin/env python3
"""Opens a `menurank report` HTML file in real headless Chromium over the DevTools protocol (the
client of review_page.py) and reports, as one JSON object on stdout, what every chart shows: its
size as laid out, its axes (tick labels on each), its axis labels, its series, and every console
message, JavaScript exception or log entry of level error or warning the page produced.

    report_charts.py --file report.html --chromium /usr/bin/chromium [--screenshot FILE]

Exits non-zero (with the reason on stderr) when Chromium does not start or the page does not load.
"""
import argparse, base64, json, os, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from review_page import Browser  # noqa: E402


class RecordingBrowser(Browser):
    """A Browser that keeps the events the page sends between replies (console, exceptions, log)."""

    def __init__(self, binary):
        self.events = []
        super().__init__(binary)

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.receive())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)


INSPECT = r"""(() => {
  const charts = [...document.querySelectorAll("svg.chart")].map(svg => {
    const box = svg.getBoundingClientRect();
    const texts = sel => [...svg.querySelectorAll(sel)].map(t => t.textContent.trim()).filter(t => t);
    const drawn = sel => [...svg.querySelectorAll(sel)].filter(e => { const b = e.getBBox(); return b.width > 0 || b.height > 0; }).length;
    const figure = svg.closest("figure");
    return {
      id: svg.id, kind: figure ? figure.dataset.chart : null,
      width: box.width, height: box.height,
      title: (svg.querySelector("title") || {}).textContent || "",
      x_axis_lines: drawn(".x-axis > line"), y_axis_lines: drawn(".y-axis > line"),
      x_ticks: texts(".x-axis .tick text"), y_ticks: texts(".y-axis .tick text"),
      x_label: texts(".x-label").join(" "), y_label: texts(".y-label").join(" "),
      x_label_drawn: drawn(".x-label"), y_label_drawn: drawn(".y-label"),
      series: [...svg.querySelectorAll(".series")].map(s => s.dataset.version),
      series_drawn: drawn(".series polyline, .series rect.bar"),
      legend: texts(".legend text"),
    };
  });
  return {title: document.title, charts, outcome_sections: document.querySelectorAll("section.outcomes").length,
          verdicts: [...document.querySelectorAll(".verdict")].map(v => v.textContent)};
})()"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--file", required=True)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    browser = RecordingBrowser(args.chromium)
    try:
        for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
            browser.call(domain)
        browser.call("Page.navigate", url="file://" + os.path.abspath(args.file))
        browser.wait_for("document.readyState === 'complete'", "the page to load")
        time.sleep(0.3)  # let late console messages arrive
        seen = browser.evaluate(INSPECT)
        browser.evaluate("0")  # drains events that arrived meanwhile
        problems = []
        for event in browser.events:
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
                problems.append("console." + params["type"] + ": " + json.dumps(params.get("args", []))[:300])
            elif method == "Runtime.exceptionThrown":
                problems.append("exception: " + json.dumps(params.get("exceptionDetails", {}))[:300])
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("error", "warning"):
                entry = params["entry"]
                problems.append(f"log {entry.get('level')} ({entry.get('source')}): {entry.get('text', '')[:300]}")
        seen["console_problems"] = problems
        if args.screenshot:
            shot = browser.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)
            with open(args.screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        print(json.dumps(seen))
    finally:
        browser.close()


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # the reason, for the Swift test's failure message
        print(f"report_charts.py: {error}", file=sys.stderr)
        sys.exit(1)
