public import JSON

extension ItemMove {
    /// `{"command", "change", "from", "to"}`, a position being `ItemPosition.jsonValue` or null.
    public var jsonValue: JSONValue {
        ["command": .string(command), "change": .string(change.jsonName),
         "from": from.map { $0.jsonValue } ?? .null, "to": to.map { $0.jsonValue } ?? .null]
    }
}
