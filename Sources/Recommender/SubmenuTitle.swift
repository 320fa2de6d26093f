import Foundation
import Menus

/// Titles for the submenus a proposal makes, named after what they hold (HIG-3), never generic.
enum SubmenuTitle {
    /// A title that says nothing about what a submenu holds: empty, or one that lint flags as
    /// generic (HIG-3). One list, the linter's, so a proposal never carries a title lint rejects.
    static func isGeneric(_ title: String) -> Bool {
        title.allSatisfy(\.isWhitespace) || ManifestLinter.isGenericSubmenuTitle(title)
    }

    /// In order of preference: the category all the commands share; the title of the current
    /// submenu they all come from; else the titles of the first two commands, with "…" when more
    /// follow ("Copy Link, Print…"). Generic candidates are skipped.
    static func title(for entries: [MenuEntry]) -> String {
        if let category = entries.first?.info.category, entries.allSatisfy({ $0.info.category == category }),
           !isGeneric(category)
        {
            return category
        }
        if let submenu = entries.first?.submenu, entries.allSatisfy({ $0.submenu == submenu }), !isGeneric(submenu) {
            return submenu
        }
        let names = entries.prefix(2).map { $0.info.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? $0.id : $0.info.title }
        return names.joined(separator: ", ") + (entries.count > 2 ? "…" : "")
    }
}
