/// Pieces of the Prometheus text exposition format (version 0.0.4).
public enum PrometheusText {
    /// The `Content-Type` of a scrape response.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// A label value with `\`, `"` and newlines escaped.
    static func escapeLabelValue(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "\\": output += "\\\\"
            case "\"": output += "\\\""
            case "\n": output += "\\n"
            default: output.append(character)
            }
        }
        return output
    }

    /// HELP text with `\` and newlines escaped.
    static func escapeHelp(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            default: output.append(character)
            }
        }
        return output
    }

    /// A sample value: whole numbers without a fraction (`3`, `0.005`, `+Inf`, `NaN`).
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Whether `name` is a valid metric name: `[a-zA-Z_:][a-zA-Z0-9_:]*`.
    static func isValidMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isLetterOrUnderscore(first) || first == ":" else { return false }
        return name.unicodeScalars.allSatisfy { isLetterOrUnderscore($0) || ("0"..."9").contains($0) || $0 == ":" }
    }

    /// Whether `name` is a valid label name: `[a-zA-Z_][a-zA-Z0-9_]*`, not starting with `__`.
    static func isValidLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isLetterOrUnderscore(first), !name.hasPrefix("__") else { return false }
        return name.unicodeScalars.allSatisfy { isLetterOrUnderscore($0) || ("0"..."9").contains($0) }
    }

    private static func isLetterOrUnderscore(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
    }
}
