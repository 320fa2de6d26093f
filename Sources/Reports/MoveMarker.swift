import Recommender

/// How a move reads in review output: `=`, `↑ 3→2`, `↓ 2→3`, `↔ 8, group 4→3`,
/// `→ submenu "Share" 5→7.2`, `← out of "Share" 7.1→7`, `pruned (was 7.2)`, `removed (was 4)`,
/// `added`.
struct MoveMarker {
    let text: String
    let style: TextStyle

    init(_ move: ItemMove) {
        let from = move.from?.label ?? ""
        let to = move.to?.label ?? ""
        switch move.change {
        case .unchanged:
            text = "="
            style = .dim
        case .movedUp:
            text = "↑ \(from)→\(to)"
            style = .green
        case .movedDown:
            text = "↓ \(from)→\(to)"
            style = .yellow
        case .regrouped:
            let groups = "group \(move.from?.group ?? 0)→\(move.to?.group ?? 0)"
            text = from == to ? "↔ \(to), \(groups)" : "↔ \(from)→\(to), \(groups)"
            style = .blue
        case .movedIntoSubmenu:
            text = "→ submenu \"\(move.to?.submenus.last ?? "")\" \(from)→\(to)"
            style = .cyan
        case .movedOutOfSubmenu:
            text = "← out of \"\(move.from?.submenus.last ?? "")\" \(from)→\(to)"
            style = .cyan
        case .pruned:
            text = "pruned (was \(from))"
            style = .red
        case .removed:
            text = "removed (was \(from))"
            style = .red
        case .added:
            text = "added"
            style = .green
        }
    }
}
