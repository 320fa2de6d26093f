import CivilTime
extension ValueKind {
    /// `text` read as this kind, or nil when it is not a valid value of it.
    func parse(_ text: String) -> ArgumentValue? {
        switch self {
        case .flag:
            switch text.lowercased() {
            case "1", "true", "yes", "on": .flag(true)
            case "0", "false", "no", "off", "": .flag(false)
            default: nil
            }
        case .string:
            .string(text)
        case .int:
            Int(text).map(ArgumentValue.int)
        case .double:
            Double(text).flatMap { $0.isFinite ? ArgumentValue.double($0) : nil }
        case .duration:
            DurationText.parse(text).map(ArgumentValue.duration)
        case .date:
            CivilDate(parsing: text).map(ArgumentValue.date)
        case .choice(let choices):
            choices.contains(text) ? .string(text) : nil
        }
    }
}
