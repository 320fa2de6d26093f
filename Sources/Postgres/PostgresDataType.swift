/// A PostgreSQL type, identified by its OID.
///
/// `description` gives the type's name for the built-in types this layer knows and
/// `oid <n>` for others (user-defined types have OIDs that differ between databases).
public struct PostgresDataType: Hashable, Sendable, CustomStringConvertible {
    public let oid: UInt32

    public init(oid: UInt32) { self.oid = oid }

    /// "Unknown": sent with a bind, it lets the server infer the parameter's type.
    public static let unknown = PostgresDataType(oid: 0)
    public static let bool = PostgresDataType(oid: 16)
    public static let bytea = PostgresDataType(oid: 17)
    public static let char = PostgresDataType(oid: 18)
    public static let name = PostgresDataType(oid: 19)
    public static let int8 = PostgresDataType(oid: 20)
    public static let int2 = PostgresDataType(oid: 21)
    public static let int4 = PostgresDataType(oid: 23)
    public static let text = PostgresDataType(oid: 25)
    public static let oidType = PostgresDataType(oid: 26)
    public static let json = PostgresDataType(oid: 114)
    public static let float4 = PostgresDataType(oid: 700)
    public static let float8 = PostgresDataType(oid: 701)
    public static let unknownLiteral = PostgresDataType(oid: 705)
    public static let bpchar = PostgresDataType(oid: 1042)
    public static let varchar = PostgresDataType(oid: 1043)
    public static let date = PostgresDataType(oid: 1082)
    public static let time = PostgresDataType(oid: 1083)
    public static let timestamp = PostgresDataType(oid: 1114)
    public static let timestamptz = PostgresDataType(oid: 1184)
    public static let interval = PostgresDataType(oid: 1186)
    public static let numeric = PostgresDataType(oid: 1700)
    public static let uuid = PostgresDataType(oid: 2950)
    public static let jsonb = PostgresDataType(oid: 3802)
    public static let int2Array = PostgresDataType(oid: 1005)
    public static let int4Array = PostgresDataType(oid: 1007)
    public static let textArray = PostgresDataType(oid: 1009)
    public static let varcharArray = PostgresDataType(oid: 1015)
    public static let int8Array = PostgresDataType(oid: 1016)
    public static let float8Array = PostgresDataType(oid: 1022)
    public static let uuidArray = PostgresDataType(oid: 2951)
    public static let dateArray = PostgresDataType(oid: 1182)
    public static let timestamptzArray = PostgresDataType(oid: 1185)

    public var description: String {
        switch oid {
        case 0: "unknown"
        case 16: "bool"
        case 17: "bytea"
        case 18: "char"
        case 19: "name"
        case 20: "int8"
        case 21: "int2"
        case 23: "int4"
        case 25: "text"
        case 26: "oid"
        case 114: "json"
        case 700: "float4"
        case 701: "float8"
        case 705: "unknown"
        case 1042: "bpchar"
        case 1043: "varchar"
        case 1082: "date"
        case 1083: "time"
        case 1114: "timestamp"
        case 1184: "timestamptz"
        case 1186: "interval"
        case 1700: "numeric"
        case 2950: "uuid"
        case 3802: "jsonb"
        case 1000: "bool[]"
        case 1005: "int2[]"
        case 1007: "int4[]"
        case 1009: "text[]"
        case 1015: "varchar[]"
        case 1016: "int8[]"
        case 1021: "float4[]"
        case 1022: "float8[]"
        case 1182: "date[]"
        case 1185: "timestamptz[]"
        case 2951: "uuid[]"
        default: "oid \(oid)"
        }
    }

    var isInteger: Bool { self == .int2 || self == .int4 || self == .int8 || self == .oidType }
}
