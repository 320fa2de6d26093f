import Menus
import TestSupport

/// The manifest and counts of DESIGN.md's worked example.
enum MailExample {
    static let commands: [String: CommandInfo] = [
        "reply": CommandInfo(title: "Reply"),
        "reply_all": CommandInfo(title: "Reply All"),
        "forward": CommandInfo(title: "Forward"),
        "archive": CommandInfo(title: "Archive"),
        "move": CommandInfo(title: "Move..."),
        "flag": CommandInfo(title: "Flag", keep: true),
        "copy_link": CommandInfo(title: "Copy Link"),
        "print": CommandInfo(title: "Print"),
        "delete": CommandInfo(title: "Delete", destructive: true),
    ]

    static let menu = ElementMenu(layout: Layout(groups: [
        [.command("reply"), .command("reply_all"), .command("forward")],
        [.command("move"), .command("archive"), .command("flag")],
        [.submenu(Submenu(title: "Share", items: [.command("copy_link"), .command("print")]))],
        [.command("delete")],
    ]))

    static let selections = Dictionary(uniqueKeysWithValues: DesignExample.selections)
}

/// Shorthand for layouts in tests: groups of command ids.
func layout(_ groups: [[String]]) -> Layout {
    Layout(groups: groups.map { $0.map { MenuItem.command($0) } })
}
