/// What a lint finding is about: one of the HIG rules of DESIGN.md, or the manifest's own health.
public enum LintRule: String, CaseIterable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Use context menus consistently (needs usage).
    case hig1 = "HIG-1"
    /// Only the most-used commands; too many overwhelm.
    case hig2 = "HIG-2"
    /// Submenus with intuitive, action-oriented titles.
    case hig3 = "HIG-3"
    /// Submenus one level deep.
    case hig4 = "HIG-4"
    /// Most-used items at the top (needs usage).
    case hig5 = "HIG-5"
    /// Separators between groups; usually no more than three groups.
    case hig6 = "HIG-6"
    /// Not both a context menu and an edit menu.
    case hig7 = "HIG-7"
    /// No "Open" command for a previewed item.
    case hig8 = "HIG-8"
    /// Standard actions and `together` sets: Cut, Copy, Paste in one group and in that order; a
    /// `together` set in one group, in the set's order.
    case convention = "CONVENTION"
    /// The shape of a menu: a command listed twice in one menu, an empty group, a menu without items.
    case structure = "STRUCTURE"
    /// The manifest file itself: commands declared but used by no menu.
    case manifest = "MANIFEST"

    public var description: String { rawValue }

    /// The guideline in one line.
    public var summary: String {
        switch self {
        case .hig1: return "Use context menus consistently: everywhere or nowhere for a kind of element."
        case .hig2: return "Offer only the most-used commands that relate to the element; too many overwhelm."
        case .hig3: return "Use submenus for complexity, with intuitive, action-oriented titles."
        case .hig4: return "Keep submenus to one level."
        case .hig5: return "Put the most-used items at the top."
        case .hig6: return "Group related items with separators; usually no more than three groups."
        case .hig7: return "Don't give one item both a context menu and an edit menu."
        case .hig8: return "Avoid an \"Open\" command for the previewed item."
        case .convention: return "Keep Cut, Copy and Paste together and in that order, and each together set in one group."
        case .structure: return "A menu lists each command once and has no empty groups."
        case .manifest: return "A manifest declares only commands its menus use."
        }
    }

    public static func < (lhs: LintRule, rhs: LintRule) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
