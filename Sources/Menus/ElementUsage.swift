/// How one element type's menu was used over a window, as lint needs it.
public struct ElementUsage: Hashable, Sendable {
    /// Times the menu was opened: selections plus dismissals.
    public var opens: Int
    /// Command id to the number of times it was picked from this element type's menu.
    public var selections: [String: Int]

    public init(opens: Int, selections: [String: Int] = [:]) {
        self.opens = opens
        self.selections = selections
    }

    public init(selections: [String: Int], dismissals: Int) {
        self.selections = selections
        self.opens = selections.values.reduce(0, +) + dismissals
    }

    public var totalSelections: Int { selections.values.reduce(0, +) }

    /// Opens, never fewer than the selections (a pick implies an open).
    public var effectiveOpens: Int { max(opens, totalSelections) }
}
