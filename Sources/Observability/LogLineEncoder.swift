import CivilTime
import Escaping
import Foundation

/// Turns one log event into one line of logfmt or JSON, newline included.
enum LogLineEncoder {
    /// Keys the line itself uses; metadata with one of these keys is written with a `_` appended.
    private static let reservedKeys: Set<String> = ["ts", "level", "msg", "logger"]

    static func encode(format: LogFormat, timestamp: UTCTimestamp, level: Logger.Level, label: String,
                       message: String, metadata: LogMetadata) -> String {
        let fields = metadata.entries.map { entry in
            (key: reservedKeys.contains(entry.key) ? entry.key + "_" : entry.key, value: entry.value)
        }
        // RFC 3339 in UTC with milliseconds (`2026-11-30T10:00:00.123Z`), without a formatter.
        let stamp = timestamp.civil.rfc3339(fractionDigits: 3)
        switch format {
        case .logfmt:
            var line = "ts=\(stamp) level=\(level.rawValue) msg=" + logfmtQuoted(message)
            line += " logger=" + logfmtValue(label)
            for (key, value) in fields {
                line += " " + logfmtKey(key) + "=" + logfmtValue(value)
            }
            return line + "\n"
        case .json:
            var line = "{\"ts\":\"\(stamp)\",\"level\":\"\(level.rawValue)\",\"msg\":" + jsonString(message)
            line += ",\"logger\":" + jsonString(label)
            for (key, value) in fields {
                line += "," + jsonString(key) + ":" + jsonValue(value)
            }
            return line + "}\n"
        }
    }

    // MARK: logfmt

    /// A key of letters, digits and `_ . - /`; anything else becomes `_`.
    static func logfmtKey(_ key: String) -> String {
        guard !key.isEmpty else { return "_" }
        return String(key.unicodeScalars.map { scalar -> Character in
            let allowed = scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar)
                || "_.-/".unicodeScalars.contains(scalar)
            return allowed ? Character(scalar) : "_"
        })
    }

    static func logfmtValue(_ value: LogValue) -> String {
        switch value {
        case .string(let text): logfmtValue(text)
        default: value.description
        }
    }

    /// Bare when it has no space, `=`, quote, backslash or control character and is not empty; else
    /// quoted.
    static func logfmtValue(_ text: String) -> String {
        let needsQuotes = text.isEmpty || text.unicodeScalars.contains { scalar in
            scalar == " " || scalar == "=" || scalar == "\"" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
        }
        return needsQuotes ? logfmtQuoted(text) : text
    }

    static func logfmtQuoted(_ text: String) -> String {
        quoted(text)
    }

    // MARK: JSON

    static func jsonValue(_ value: LogValue) -> String {
        switch value {
        case .string(let text): jsonString(text)
        case .int(let number): String(number)
        case .double(let number): number.isFinite ? String(number) : jsonString(String(number))
        case .bool(let flag): flag ? "true" : "false"
        }
    }

    static func jsonString(_ text: String) -> String {
        quoted(text)
    }

    /// Quoted logfmt values and JSON strings are quoted alike, by Escaping's `JSONText` (the one
    /// JSON rule), with DEL escaped too: log lines are read on terminals.
    private static func quoted(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count + 2)
        JSONText.appendQuoted(text, to: &output, escapingDelete: true)
        return output
    }
}
