/// One command's selections on one day (a row of the daily rollup).
///
/// Days are whole UTC days counted from any fixed epoch (the storage layer uses days since
/// 1970-01-01); only differences between days matter here.
public struct CommandDay: Hashable, Sendable {
    public var day: Int
    public var command: String
    public var selections: Int

    public init(day: Int, command: String, selections: Int) {
        self.day = day
        self.command = command
        self.selections = selections
    }
}
