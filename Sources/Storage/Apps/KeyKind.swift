/// What an API key may do: `write` sends events, `read` fetches layouts.
public enum KeyKind: String, Sendable, Hashable, CaseIterable {
    case write
    case read
}
