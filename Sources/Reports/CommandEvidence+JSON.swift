public import JSON

extension CommandEvidence {
    /// `{"command", "selections", "share", "share_low", "share_high", "users"}`.
    public var jsonValue: JSONValue {
        [
            "command": .string(command),
            "selections": JSONValue(integerLiteral: selections),
            "share": ReportJSON.number(share, decimals: ReportNumber.shareDecimals),
            "share_low": ReportJSON.number(shareLow, decimals: ReportNumber.shareDecimals),
            "share_high": ReportJSON.number(shareHigh, decimals: ReportNumber.shareDecimals),
            "users": JSONValue(integerLiteral: users),
        ]
    }

    /// Reads `jsonValue`; errors name `path`.
    public init(json: JSONValue, path: String) throws(ReportError) {
        let object = try ReportJSON.Object(json, path: path)
        self.init(command: try object.string("command"), selections: try object.int("selections"),
                  share: try object.double("share"), shareLow: try object.double("share_low"),
                  shareHigh: try object.double("share_high"), users: try object.int("users"))
    }
}
