/// What one line of a JSON Lines import holds.
public enum JSONLinesOutcome: Sendable, Hashable {
    /// An empty or whitespace-only line, skipped.
    case blank
    /// A well-formed event; its `index` is the line number.
    case event(IncomingEvent)
    case rejected(LineRejection)
}
