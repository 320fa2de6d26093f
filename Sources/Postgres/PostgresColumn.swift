/// A column of a result: its name and PostgreSQL type.
public struct PostgresColumn: Hashable, Sendable {
    public let name: String
    public let dataType: PostgresDataType
}
