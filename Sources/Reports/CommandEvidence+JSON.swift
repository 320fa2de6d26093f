public import JSON

extension CommandEvidence {
    /// `{"command", "selections", "user_days", "share", "share_low", "share_high", "users", "reach_low",
    /// "reach_high"}`.
    public var jsonValue: JSONValue {
        [
            "command": .string(command),
            "selections": JSONValue(integerLiteral: selections),
            "user_days": ReportJSON.number(userDays, decimals: ReportNumber.scanDepthDecimals),
            "share": ReportJSON.number(share, decimals: ReportNumber.shareDecimals),
            "share_low": ReportJSON.number(shareLow, decimals: ReportNumber.shareDecimals),
            "share_high": ReportJSON.number(shareHigh, decimals: ReportNumber.shareDecimals),
            "users": JSONValue(integerLiteral: users),
            "reach_low": ReportJSON.number(reachLow, decimals: ReportNumber.shareDecimals),
            "reach_high": ReportJSON.number(reachHigh, decimals: ReportNumber.shareDecimals),
        ]
    }

    /// Reads `jsonValue`; errors name `path`.
    public init(json: JSONValue, path: String) throws(ReportError) {
        let object = try ReportJSON.Object(json, path: path)
        self.init(command: try object.string("command"), selections: try object.int("selections"),
                  share: try object.double("share"), shareLow: try object.double("share_low"),
                  shareHigh: try object.double("share_high"), users: try object.int("users"),
                  userDays: try object.optionalDouble("user_days"), reachLow: try object.optionalDouble("reach_low") ?? 0,
                  reachHigh: try object.optionalDouble("reach_high") ?? 0)
    }
}
