import ArgumentParsing

/// The `--format` choices of the commands, as typed values: a command switches over its cases
/// (the compiler checks each one is handled) instead of comparing text.
enum TextOrJSON: String, CaseIterable, Sendable {
    case text, json
}

/// A document's formats: text for terminals, Markdown for pull requests, JSON for machines.
enum DocumentFormat: String, CaseIterable, Sendable {
    case text, markdown, json
}

/// `rank`'s formats.
enum TableFormat: String, CaseIterable, Sendable {
    case table, json, csv
}

extension Option where Value == TextOrJSON {
    /// `--format text|json`, text by default; `valueName` and `help` as the command shows them.
    static func format(valueName: String? = nil, help: String) -> Option {
        .choice("format", valueName: valueName, default: .text, help: help)
    }
}

extension Option where Value == DocumentFormat {
    /// `--format text|markdown|json`, text by default.
    static let documentFormat: Option = .choice("format", default: .text, help: "Output format.")
}

extension Option where Value == String {
    /// `--app NAME`, required: the app a command reads.
    static let app: Option = .required("app", valueName: "name", help: "The app.")
}

extension Option where Value == String? {
    /// `--element-type TYPE`: only this element type.
    static let elementType: Option = .string("element-type", valueName: "type", help: "Only this element type.")
}
