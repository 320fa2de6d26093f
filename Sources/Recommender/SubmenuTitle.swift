import Foundation
import Menus

/// Titles for the submenus a proposal makes (HIG-3), from the manifest, never generic.
enum SubmenuTitle {
    /// A title that says nothing about what a submenu holds: empty, or one that lint flags as
    /// generic (HIG-3). One list, the linter's, so a proposal never carries a title lint rejects.
    static func isGeneric(_ title: String) -> Bool {
        title.allSatisfy { $0.isWhitespace } || ManifestLinter.isGenericSubmenuTitle(title)
    }

    /// The title of a submenu holding these categories: their titles from the manifest; for
    /// several, joined with ", " in alphabetical order ("Bookmarks, Local History" for a merged
    /// submenu), an order that depends neither on use nor on the layout, so the title stays the
    /// same when the proposal is accepted or the window's days are resampled. Untitled categories
    /// add nothing (the proposal reports them, lint asks the manifest for a title). Nil when none
    /// has a title.
    static func title(categories: [String?]) -> String? {
        let given = categories.compactMap { $0 }
        var unique: [String] = []
        for title in given where !unique.contains(title) { unique.append(title) }
        if unique.count == 1 { return unique[0] }
        var titles: [String] = []
        for title in unique {
            // A merged title read back as a category ("A, B") adds its parts, each once.
            for part in title.components(separatedBy: separator) where !titles.contains(part) { titles.append(part) }
        }
        return titles.isEmpty ? nil : titles.sorted().joined(separator: separator)
    }

    static let separator = ", "

    /// The last resort, for a submenu none of whose categories has a title in the manifest (the
    /// proposal lists them as untitled categories and lint asks for titles): the title of the
    /// current submenu all the commands come from, else the titles of the first two commands, with
    /// "…" when more follow.
    static func fallback(for entries: [MenuEntry]) -> String {
        if let submenu = entries.first?.submenu, entries.allSatisfy({ $0.submenu == submenu }), !isGeneric(submenu) {
            return submenu
        }
        let names = entries.prefix(2).map {
            $0.info.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? $0.id : $0.info.title
        }
        return names.joined(separator: ", ") + (entries.count > 2 ? "…" : "")
    }
}
