/// A command seen in telemetry for the element type but absent from its current layout: reported,
/// never invented into a proposal.
public struct UnknownCommand: Hashable, Sendable {
    public var command: String
    public var selections: Double
    public var users: Int
    public var userDays: Double

    public init(command: String, selections: Double, users: Int, userDays: Double? = nil) {
        self.command = command
        self.selections = selections
        self.users = users
        self.userDays = userDays ?? selections
    }
}
