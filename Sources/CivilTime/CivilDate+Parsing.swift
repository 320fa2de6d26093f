extension CivilDate {
    /// The date `text` spells as `YYYY-MM-DD` (exactly four, two and two ASCII digits), or nil when
    /// it is not written so or the day does not exist (2026-02-29).
    public init?(parsing text: some StringProtocol) {
        var year = 0, month = 0, day = 0
        var index = 0
        for byte in text.utf8 {
            switch index {
            case 4, 7:
                guard byte == UInt8(ascii: "-") else { return nil }
            case 0..<10:
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let digit = Int(byte - UInt8(ascii: "0"))
                if index < 4 {
                    year = year * 10 + digit
                } else if index < 7 {
                    month = month * 10 + digit
                } else {
                    day = day * 10 + digit
                }
            default:
                return nil
            }
            index += 1
        }
        guard index == 10 else { return nil }
        self.init(year: year, month: month, day: day)
    }
}
