public import Recommender

extension LayoutDiff.Change {
    /// The snake_case name used in JSON (`moved_up`, `moved_into_submenu`).
    public var jsonName: String {
        switch self {
        case .unchanged: return "unchanged"
        case .movedUp: return "moved_up"
        case .movedDown: return "moved_down"
        case .regrouped: return "regrouped"
        case .movedIntoSubmenu: return "moved_into_submenu"
        case .movedOutOfSubmenu: return "moved_out_of_submenu"
        case .pruned: return "pruned"
        case .removed: return "removed"
        case .added: return "added"
        }
    }

    /// The change named by `jsonName`.
    public init?(jsonName: String) {
        guard let match = Self.allCases.first(where: { $0.jsonName == jsonName }) else { return nil }
        self = match
    }
}
