/// What happened when the menu was shown: a command was picked, or the menu closed without a pick.
public enum EventKind: String, Sendable, Hashable, CaseIterable {
    case select
    case dismiss
}
