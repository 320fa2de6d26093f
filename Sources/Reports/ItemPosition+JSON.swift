public import JSON

extension ItemPosition {
    /// `{"group": 3, "path": [7, 2], "submenus": ["Share"]}` (1-based, as people count).
    public var jsonValue: JSONValue {
        ["group": JSONValue(integerLiteral: group), "path": .array(path.map { JSONValue(integerLiteral: $0) }),
         "submenus": .array(submenus.map(JSONValue.string))]
    }
}
