extension ManifestLinter {
    /// How a command relates to opening the item it is shown on (HIG-8).
    public enum OpenLikeness: Hashable, Sendable {
        /// Opens the item: title "Open" / "Открыть", or an id whose last dot-separated part is `open`.
        case open
        /// Opens the item somewhere in particular: a title starting "Open " / "Открыть "
        /// ("Open in New Window", "Open With…"), or an id part like `OpenInRightSplit`, `open_with`.
        case openElsewhere
    }

    /// Submenu titles that say nothing about what the submenu holds (HIG-3), compared ignoring case,
    /// surrounding spaces and a trailing "..." or "…".
    public static let genericSubmenuTitles: Set<String> = [
        "", "more", "more options", "more actions", "other", "others", "misc", "miscellaneous",
        "options", "actions", "extras", "ещё", "еще", "другое", "прочее",
    ]

    /// Whether `title` is generic: a word from `genericSubmenuTitles`, or nothing but an ellipsis.
    /// An empty or blank title is not generic but missing (reported as an error instead).
    public static func isGenericSubmenuTitle(_ title: String) -> Bool {
        guard !title.allSatisfy(\.isWhitespace) else { return false }
        return genericSubmenuTitles.contains(normalizedTitle(title))
    }

    /// Whether a command opens the item (see `OpenLikeness`); nil when it does not look like it.
    public static func openLikeness(id: String, title: String?) -> OpenLikeness? {
        if let title {
            let t = normalizedTitle(title)
            if t == "open" || t == "открыть" { return .open }
            if t.hasPrefix("open ") || t.hasPrefix("открыть ") { return .openElsewhere }
        }
        var part = Substring(id.split(separator: ".", omittingEmptySubsequences: false).last ?? "")
        if part.hasPrefix("$") { part = part.dropFirst() }
        if part.lowercased() == "open" { return .open }
        if part.count > 4, part.lowercased().hasPrefix("open") {
            let next = part[part.index(part.startIndex, offsetBy: 4)]
            if next.isUppercase || next == "_" || next == "-" { return .openElsewhere }
        }
        return nil
    }

    /// Lowercased, trimmed, without a trailing "..." or "…".
    static func normalizedTitle(_ title: String) -> String {
        var t = trimmed(Substring(title.lowercased()))
        while t.hasSuffix("…") || t.hasSuffix("...") {
            t = trimmed(t.dropLast(t.hasSuffix("…") ? 1 : 3))
        }
        return String(t)
    }

    private static func trimmed(_ s: Substring) -> Substring {
        var t = s
        while let c = t.first, c.isWhitespace { t.removeFirst() }
        while let c = t.last, c.isWhitespace { t.removeLast() }
        return t
    }
}
