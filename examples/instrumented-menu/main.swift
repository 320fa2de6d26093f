// An app's context menu instrumented with MenurankClient: it shows the menu menurank serves for
// `mail.message` (or the app's own when none is served), records a few picks and a dismissal, and
// flushes them. Run it against a daemon (see README, "Instrumenting an app"):
//
//   menurank-example --url http://127.0.0.1:8080 --write-key mrk_w_... --read-key mrk_r_... [--dir DIR]
import Foundation
import MenurankClient

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let name = arguments.popFirst() { options[name] = arguments.popFirst() ?? "" }
guard let url = options["--url"].flatMap(URL.init(string:)), let writeKey = options["--write-key"] else {
    print("usage: menurank-example --url URL --write-key KEY [--read-key KEY] [--dir DIR]")
    exit(64)
}
let directory = URL(fileURLWithPath: options["--dir"]
    ?? FileManager.default.temporaryDirectory.appendingPathComponent("menurank-example").path)

// 1. One client for the app's lifetime, its journal in the app's support directory.
var configuration = MenurankConfiguration(
    endpoint: url, writeKey: writeKey, directory: directory, readKey: options["--read-key"],
    context: MenurankContext(appVersion: "5.2.1", platform: "macOS 15.1", locale: "en_US", user: "person-42"))
configuration.onRejection = { rejection in print("rejected \(rejection.id): \(rejection.code) \(rejection.message)") }
let client = try MenurankClient(configuration: configuration)

// 2. The menu to show: the served layout when there is one, the app's own otherwise.
struct ShownItem {
    var command: String
    var title: String
}
let ownMenu: [[ShownItem]] = [
    [ShownItem(command: "reply", title: "Reply"), ShownItem(command: "reply_all", title: "Reply All"),
     ShownItem(command: "forward", title: "Forward")],
    [ShownItem(command: "archive", title: "Archive"), ShownItem(command: "delete", title: "Delete")],
]
var menu = ownMenu
var menuVersion: String?
do {
    if let served = try await client.layout(for: "mail.message") {
        menuVersion = served.menuVersion
        menu = served.groups.map { group in
            group.flatMap { item -> [ShownItem] in
                switch item {
                case .command(let command): return [ShownItem(command: command.id, title: command.title)]
                case .submenu(let title, let commands):
                    return commands.map { ShownItem(command: $0.id, title: "\(title) ▸ \($0.title)") }
                }
            }
        }
        print("served layout of mail.message (version \(served.menuVersion)):")
    } else {
        print("no served layout for mail.message: the app's own menu")
    }
} catch {
    print("layouts unavailable (\(error)): the app's own menu")
}
let rows = menu.enumerated().flatMap { index, group in (index > 0 ? [nil] : []) + group.map(Optional.some) }
for row in rows { print(row.map { "  \($0.title)" } ?? "  ───────") }

// 3. A person opens the menu and picks; `position` is the row as shown, separators not counted.
let shown = menu.flatMap { $0 }
for (pick, latency) in [(0, 820), (2, 1430), (0, 640)] where pick < shown.count {
    client.record(elementType: "mail.message", command: shown[pick].command, position: pick, latencyMs: latency,
                  menuVersion: menuVersion, trigger: "right_click")
}
// ...and once closes it without picking anything.
client.recordDismissal(elementType: "mail.message", latencyMs: 2100, menuVersion: menuVersion, trigger: "right_click")

// 4. At the end of the app's life: deliver what is queued (the journal keeps anything left over).
let delivered = await client.flush(timeout: .seconds(30))
let metrics = client.metrics
print("delivered: \(delivered); sent \(metrics.sent), rejected \(metrics.rejected), queued \(metrics.queued), dropped \(metrics.dropped)")
await client.shutdown()
