/// Rows of cells printed in aligned columns (two spaces apart), with optional separator rules.
/// Alignment is computed on display width, so non-ASCII titles line up; colour codes are added
/// after padding. Lines carry no trailing spaces.
struct TextTable {
    enum Alignment { case left, right }
    enum Row {
        case cells([StyledText])
        case separator
    }

    var alignments: [Alignment]
    var rows: [Row] = []
    var indent = "  "

    init(_ alignments: [Alignment]) { self.alignments = alignments }

    mutating func add(_ cells: [StyledText]) { rows.append(.cells(cells)) }
    mutating func addSeparator() { rows.append(.separator) }

    func lines(colour: Bool) -> [String] {
        var widths = [Int](repeating: 0, count: alignments.count)
        for case let .cells(cells) in rows {
            for (i, cell) in cells.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.width) }
        }
        // Columns empty in every row take no room.
        let shown = widths.indices.filter { widths[$0] > 0 }
        let total = shown.reduce(0) { $0 + widths[$1] } + max(0, shown.count - 1) * 2
        return rows.map { row in
            switch row {
            case .separator:
                return indent + TextStyle.dim.apply(String(repeating: "─", count: total), colour: colour)
            case let .cells(cells):
                var line = ""
                var pending = 0
                for (n, i) in shown.enumerated() {
                    let cell = i < cells.count ? cells[i] : StyledText("")
                    let padding = widths[i] - cell.width
                    let isLast = n == shown.count - 1
                    if n > 0 { pending += 2 }
                    if cell.text.isEmpty {
                        pending += widths[i]
                        continue
                    }
                    let lead = alignments[i] == .right ? padding : 0
                    line += String(repeating: " ", count: pending + lead) + cell.style.apply(cell.text, colour: colour)
                    pending = alignments[i] == .left && !isLast ? padding : 0
                }
                return line.isEmpty ? "" : indent + line
            }
        }
    }
}
