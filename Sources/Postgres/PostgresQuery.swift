import Foundation

/// A SQL statement with its bound values, built by string interpolation.
///
/// Each interpolated value becomes a placeholder (`$1`, `$2`, …) plus a bind, so the SQL text
/// and the values travel apart and values can never change the statement:
///
/// ```swift
/// let rows = try conn.query("select name from apps where id = \(appID) and kind = \(kind)")
/// ```
///
/// Raw SQL must be spelled out: `PostgresQuery(unsafeSQL:)` or `\(unsafeRaw: text)`.
/// Identifiers (table, schema, column names) go through `\(identifier: name)`, quoted with
/// libpq's `PQescapeIdentifier` when the statement runs.
public struct PostgresQuery: ExpressibleByStringInterpolation, Sendable, CustomStringConvertible {
    enum Segment: Sendable {
        case sql(String)
        case identifier(String)
        case bind(Int)
    }

    var segments: [Segment]
    /// The bound values in placeholder order.
    public internal(set) var binds: [any PostgresEncodable]

    /// A statement made of trusted SQL text, with no binds.
    public init(unsafeSQL sql: String) {
        segments = sql.isEmpty ? [] : [.sql(sql)]
        binds = []
    }

    public init(stringLiteral value: String) {
        self.init(unsafeSQL: value)
    }

    public init(stringInterpolation: StringInterpolation) {
        segments = stringInterpolation.segments
        binds = stringInterpolation.binds
    }

    /// Appends another query; its placeholders are renumbered to follow this one's.
    public mutating func append(_ other: PostgresQuery) {
        let offset = binds.count
        for segment in other.segments {
            if case .bind(let index) = segment {
                segments.append(.bind(index + offset))
            } else {
                segments.append(segment)
            }
        }
        binds.append(contentsOf: other.binds)
    }

    /// The SQL text with `$n` placeholders and identifiers quoted by doubling `"`.
    /// Used in error messages; never contains bound values.
    public var sql: String {
        render { name in "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    }

    public var description: String { sql }

    func render(quoting quote: (String) throws -> String) rethrows -> String {
        var text = ""
        for segment in segments {
            switch segment {
            case .sql(let sql): text += sql
            case .identifier(let name): text += try quote(name)
            case .bind(let index): text += "$\(index + 1)"
            }
        }
        return text
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var segments: [Segment] = []
        var binds: [any PostgresEncodable] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            binds.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { segments.append(.sql(literal)) }
        }

        /// Binds a value: the SQL gets `$n`.
        public mutating func appendInterpolation(_ value: some PostgresEncodable) {
            segments.append(.bind(binds.count))
            binds.append(value)
        }

        /// Binds an optional value: `nil` is sent as NULL.
        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
            segments.append(.bind(binds.count))
            binds.append(value)
        }

        /// Inserts trusted SQL text as is. Never pass text that came from outside.
        public mutating func appendInterpolation(unsafeRaw sql: String) {
            segments.append(.sql(sql))
        }

        /// Inserts a quoted identifier (quoted with `PQescapeIdentifier` when the query runs).
        public mutating func appendInterpolation(identifier name: String) {
            segments.append(.identifier(name))
        }

        /// Inserts another query, renumbering its binds.
        public mutating func appendInterpolation(_ query: PostgresQuery) {
            let offset = binds.count
            for segment in query.segments {
                if case .bind(let index) = segment {
                    segments.append(.bind(index + offset))
                } else {
                    segments.append(segment)
                }
            }
            binds.append(contentsOf: query.binds)
        }
    }
}
