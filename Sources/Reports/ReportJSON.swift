import JSON
import Menus

/// Helpers for writing and reading report documents: deterministic numbers and typed member
/// access that names the JSON path of anything missing or mistyped.
enum ReportJSON {
    /// A number rounded to `decimals` places, written without trailing zeros.
    static func number(_ x: Double, decimals: Int) -> JSONValue {
        .number(JSONNumber(text: ReportNumber.decimal(x, decimals: decimals, trimmingZeros: true)))
    }

    static func parse(_ text: String) throws(ReportError) -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            throw ReportError(kind: .syntax, path: "$", message: error.description)
        }
    }

    /// An object's members, read by name.
    struct Object {
        let members: [(key: String, value: JSONValue)]
        let path: String

        init(_ value: JSONValue, path: String) throws(ReportError) {
            guard let members = value.objectValue else {
                throw ReportError(kind: .invalidDocument, path: path, message: "expected an object, found \(value.typeName)")
            }
            self.members = members
            self.path = path
        }

        func has(_ key: String) -> Bool { members.contains { $0.key == key } }

        func optionalString(_ key: String) throws(ReportError) -> String? {
            let value = try member(key)
            if value.isNull { return nil }
            guard let s = value.stringValue else { throw mistyped(key, "a string or null", value) }
            return s
        }

        func optionalNumber(_ key: String) throws(ReportError) -> Double? {
            let value = try member(key)
            if value.isNull { return nil }
            guard let x = value.doubleValue, x.isFinite else { throw mistyped(key, "a number or null", value) }
            return x
        }

        func member(_ key: String) throws(ReportError) -> JSONValue {
            guard let value = members.first(where: { $0.key == key })?.value else {
                throw ReportError(kind: .invalidDocument, path: path, message: "missing member \"\(key)\"")
            }
            return value
        }

        private func mistyped(_ key: String, _ expected: String, _ value: JSONValue) -> ReportError {
            ReportError(kind: .invalidDocument, path: path + "." + key,
                        message: "expected \(expected), found \(value.typeName)")
        }

        func string(_ key: String) throws(ReportError) -> String {
            let value = try member(key)
            guard let s = value.stringValue else { throw mistyped(key, "a string", value) }
            return s
        }

        func bool(_ key: String) throws(ReportError) -> Bool {
            let value = try member(key)
            guard let b = value.boolValue else { throw mistyped(key, "a boolean", value) }
            return b
        }

        func int(_ key: String) throws(ReportError) -> Int {
            let value = try member(key)
            guard let n = value.intValue else { throw mistyped(key, "an integer", value) }
            return n
        }

        func optionalInt(_ key: String) throws(ReportError) -> Int? {
            let value = try member(key)
            if value.isNull { return nil }
            guard let n = value.intValue else { throw mistyped(key, "an integer or null", value) }
            return n
        }

        func double(_ key: String) throws(ReportError) -> Double {
            let value = try member(key)
            guard let x = value.doubleValue, x.isFinite else { throw mistyped(key, "a number", value) }
            return x
        }

        func optionalDouble(_ key: String) throws(ReportError) -> Double? {
            guard members.contains(where: { $0.key == key }) else { return nil }
            return try double(key)
        }

        /// A layout in the manifest's shape; problems are reported under the member's path.
        func layout(_ key: String) throws(ReportError) -> Layout {
            let value = try member(key)
            do {
                return try Layout(json: value)
            } catch {
                let detail = error.issues.map { $0.description }.joined(separator: "; ")
                throw ReportError(kind: .invalidLayout, path: path + "." + key, message: detail)
            }
        }

        /// An array of strings, or nil when the member is absent (documents written before it existed).
        func optionalStrings(_ key: String) throws(ReportError) -> [String]? {
            guard members.contains(where: { $0.key == key }) else { return nil }
            var out: [String] = []
            for (element, elementPath) in try array(key) {
                guard let s = element.stringValue else {
                    throw ReportError(kind: .invalidDocument, path: elementPath,
                                      message: "expected a string, found \(element.typeName)")
                }
                out.append(s)
            }
            return out
        }

        func object(_ key: String) throws(ReportError) -> Object {
            try Object(member(key), path: path + "." + key)
        }

        /// The elements of an array member, each with its path (`$.commands[2]`).
        func array(_ key: String) throws(ReportError) -> [(JSONValue, String)] {
            let value = try member(key)
            guard let elements = value.arrayValue else { throw mistyped(key, "an array", value) }
            return elements.enumerated().map { ($0.element, "\(path).\(key)[\($0.offset)]") }
        }
    }
}
