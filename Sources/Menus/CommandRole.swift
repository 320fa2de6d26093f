/// A standard action whose place in a menu follows a platform convention (manifest `role`), named
/// as UIKit's standard edit actions name them (`UIResponderStandardEditActions`: `cut:`, `copy:`,
/// `paste:`, ...), in snake case. DESIGN.md, invariant 5: Cut, Copy and Paste keep their order and
/// stay in one group or container when the current menu has them together.
public enum CommandRole: String, Hashable, Sendable, CaseIterable {
    case cut
    case copy
    case paste
    case pasteAndMatchStyle = "paste_and_match_style"
    case delete
    case selectAll = "select_all"
    case select
    case duplicate
    case rename
    case move
    case share
    case print
    case find
    case toggleBoldface = "toggle_boldface"
    case toggleItalics = "toggle_italics"
    case toggleUnderline = "toggle_underline"

    /// The clipboard roles in their conventional order: Cut, Copy, Paste.
    public static let clipboard: [CommandRole] = [.cut, .copy, .paste]

    /// The role a command's title names when the manifest declares none: exactly "Cut", "Copy" or
    /// "Paste" (case and a trailing ellipsis aside). Only the clipboard trio is read from titles:
    /// the words are the same in every app that has them, and their convention is the strongest.
    public static func inferred(fromTitle title: String) -> CommandRole? {
        var text = Substring(title.lowercased())
        while text.first == " " { text.removeFirst() }
        while let last = text.last, last == " " || last == "." || last == "…" { text.removeLast() }
        switch text {
        case "cut": return .cut
        case "copy": return .copy
        case "paste": return .paste
        default: return nil
        }
    }
}
