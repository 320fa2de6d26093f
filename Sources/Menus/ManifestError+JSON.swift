public import JSON

extension ManifestError {
    /// `{"error": "syntax"|"invalid", "issues": [{"path", "message"}], "line", "column"}` (line and
    /// column only for a syntax error), for `--format json` and HTTP responses.
    public var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            (key: "error", value: .string(kind.description)),
            (key: "issues", value: .array(issues.map { ["path": .string($0.path.description), "message": .string($0.message)] })),
        ]
        if let syntax {
            members.append((key: "line", value: .number(JSONNumber(syntax.line))))
            members.append((key: "column", value: .number(JSONNumber(syntax.column))))
        }
        return .object(members)
    }
}
