import CivilTime
import Postgres

/// The two rollup tables a span is read from: the daily rows and the block rows of the same kind.
enum RollupTable {
    /// `daily_command_usage` / `block_command_usage`.
    case commands
    /// `daily_element_usage` / `block_element_usage`.
    case elements

    var daily: String { self == .commands ? "daily_command_usage" : "daily_element_usage" }
    /// The daily rows per segment (sql/0014), which have no blocks.
    var segments: String { self == .commands ? "segment_command_usage" : "segment_element_usage" }
    var blocks: String { self == .commands ? "block_command_usage" : "block_element_usage" }
}

extension RollupSpan {
    /// The rows of the parts of `spans` from `table`: `columns` of each daily or block row plus
    /// `part`, the index of the span in `spans` it belongs to. Only element types in `elementIDs`
    /// when it is given. Index lookups only (the keys lead with app and day, or app, level and block).
    ///
    /// With `segments`, the rows of those segments from the per-segment daily rows instead (several
    /// rows per day and command, which the caller sums); their spans are days only.
    static func rows(_ table: RollupTable, columns: [String], appID: Int32, spans: [RollupSpan],
                     elementIDs: [Int32]?, segments: [Int32]? = nil) -> PostgresQuery
    {
        rows(table, columnsOfPart: { _ in columns }, appID: appID, spans: spans, elementIDs: elementIDs, segments: segments)
    }

    /// `rows` with the columns chosen per part (for example a sketch read for the first part only
    /// and `NULL` in its place for the others).
    static func rows(_ table: RollupTable, columnsOfPart: (Int) -> [String], appID: Int32, spans: [RollupSpan],
                     elementIDs: [Int32]?, segments: [Int32]? = nil) -> PostgresQuery
    {
        var filter = PostgresQuery(unsafeSQL: "")
        if let elementIDs { filter = " AND element_type_id = ANY(\(elementIDs))" }
        var query = PostgresQuery(unsafeSQL: "")
        if let segments {
            for (part, span) in spans.enumerated() {
                precondition(span.blocks.isEmpty, "the segment rollups have no blocks")
                let list = columnsOfPart(part).joined(separator: ", ")
                if part > 0 { query.append(" UNION ALL ") }
                query.append("""
                    SELECT \(unsafeRaw: list), \(Int32(part)) AS part FROM \(identifier: table.segments)
                    WHERE app_id = \(appID) AND day = ANY(\(span.days.map { CivilDate(dayNumber: $0) })::date[])
                      AND segment_id = ANY(\(segments))\(filter)
                    """)
            }
            return query
        }
        for (part, span) in spans.enumerated() {
            let days = span.days.map { CivilDate(dayNumber: $0) }
            let levels = span.blocks.map { Int32($0.level) }
            let blocks = span.blocks.map { Int32($0.index) }
            let list = columnsOfPart(part).joined(separator: ", ")
            if part > 0 { query.append(" UNION ALL ") }
            query.append("""
                SELECT \(unsafeRaw: list), \(Int32(part)) AS part FROM \(identifier: table.daily)
                WHERE app_id = \(appID) AND day = ANY(\(days)::date[])\(filter)
                UNION ALL
                SELECT \(unsafeRaw: list), \(Int32(part)) AS part FROM \(identifier: table.blocks)
                WHERE app_id = \(appID) AND (level, block) IN (SELECT * FROM unnest(\(levels)::int2[], \(blocks)::int4[]))\(filter)
                """)
        }
        return query
    }

    /// The stored blocks of an app that overlap `[from, to]` (those listed in `rollup_blocks`).
    static func availableBlocks(appID: Int32, from: Int, to: Int, on connection: PostgresConnection) throws
        -> Set<RollupBlock>
    {
        var out = Set<RollupBlock>()
        for row in try connection.query("""
            SELECT level, block FROM rollup_blocks
            WHERE app_id = \(appID) AND (block + 1) * (1 << level) > \(Int32(from)) AND block * (1 << level) <= \(Int32(to))
            """)
        {
            let level = Int(try row.decode(Int16.self, column: "level"))
            guard RollupBlock.levels.contains(level) else { continue }
            out.insert(RollupBlock(level: level, index: Int(try row.decode(Int32.self, column: "block"))))

        }
        return out
    }
}
