import CivilTime
import Menus
import Reports
import Testing

@Suite("Report Markdown rendering")
struct ReportMarkdownTests {
    let document = ReportFixtures.document()

    /// The summary counts the filed step's cost as the ladder does (group or submenu changes),
    /// with the position changes beside it; a document from before the ladder keeps the old count.
    @Test func summaryCountsTheFiledStepsMoves() {
        #expect(document.ladder.contains { $0.filed && $0.step == "regroup" })
        #expect(document.summaryLine.hasPrefix("regroup: 1 of 9 commands changes group or submenu (6 change position), 1 pruned, "))
        var beforeTheLadder = document
        beforeTheLadder.ladder = []
        #expect(beforeTheLadder.summaryLine.hasPrefix("6 of 9 commands move, 1 pruned, 1 lint finding; "))
    }

    @Test func mailExampleTableAndSections() {
        let markdown = MarkdownReportRenderer(titles: ReportFixtures.titles).render(document)
        #expect(markdown.hasPrefix("### `mail.message` · proposal 12 · changed\n\n"))
        #expect(markdown.contains("**Summary:** regroup: 1 of 9 commands changes group or submenu (6 change position), 1 pruned, 1 lint finding; scan depth 2.83 → 2.73 "
            + "items per selection, about 0.02 s saved per selection. 10,140 selections, 812 users, 120 dismissals in the window.\n"))
        let table = """
            | Group | New | Command | Share | Move |
            |---:|---:|---|---:|---|
            | 1 | 1 | `Reply` | 40.43% | = |
            | 1 | 2 | `Forward` | 17.75% | ↑ 3→2 |
            | 1 | 3 | `Reply All` | 12.33% | ↓ 2→3 |
            | 2 | 4 | `Archive` | 9.96% | ↑ 5→4 |
            | 2 | 5 | `Move...` | 8.19% | ↓ 4→5 |
            | 2 | 6 | `Flag` | 4.34% | = |
            | 3 | 7 | `Copy Link` | 2.96% | ← out of "Share" 7.1→7 |
            | 3 | 8 | `Delete` | 3.85% | ↔ 8, group 4→3 |
            |   |   | ~~`Print`~~ | 0.20% | pruned (was 7.2) |

            """
        #expect(markdown.contains(table))
        #expect(markdown.contains("""
            | Command | Selections | User-days | Share | Interval | Users | Reach |
            |---|---:|---:|---:|---:|---:|---|
            | `Print` | 20 | 20 | 0.20% | 0.13% – 0.30% | 9 | used by 9 of 812 people (1.11%, 0.58% – 2.09%) |

            """))
        #expect(markdown.contains("**Evidence**\n\n- scan depth 2.83 → 2.73 items per selection"))
        #expect(markdown.contains("- 0.20% of selections displaced by pruning (a pruned command counts 11 items scanned)\n"))
        #expect(markdown.contains("Cockburn"))
        #expect(markdown.contains("- **warning** HIG-6 at `menus.mail.message.groups`: the menu has 4 groups; "
            + "keep to at most 3 by merging related groups\n"))
    }

    @Test func reportHasATitleOneLevelUp() {
        let markdown = MarkdownReportRenderer().render(ReportFixtures.report())
        #expect(markdown.hasPrefix("## Menu proposals for `mail`\n\nWindow 2026-11-01 to 2026-11-28: 1 element type, 1 with changes.\n\n### "))
    }

    @Test func pipesAndMarkupInTitlesDoNotBreakTheTable() {
        var titles = ReportFixtures.titles
        titles["reply"] = "Reply | <b>All</b> *now*"
        let markdown = MarkdownReportRenderer(titles: titles).render(document)
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("%") && !$0.contains("Interval") }
        for row in rows.prefix(9) {
            // Unescaped pipes delimit the five cells of the diff table.
            var count = 0
            var previous: Character = " "
            for c in row {
                if c == "|", previous != "\\" { count += 1 }
                previous = c
            }
            #expect(count == 6, "\(row)")
        }
        #expect(markdown.contains(#"`Reply \| <b>All</b> *now*`"#))
    }

    @Test func codeSpansHoldBackticks() {
        var odd = document
        odd.elementType = "a`b"
        #expect(MarkdownReportRenderer().render(odd).hasPrefix("### ``a`b`` · proposal 12"))
    }

    @Test func proposalListTable() {
        let list = [ProposalSummary(id: 4, app: "mail", elementType: "mail.message", status: "rejected",
                                    created: UTCTimestamp(microsecondsSince1970: 0), changedItems: 2)]
        #expect(MarkdownReportRenderer().render(list) == """
            | ID | App | Element type | Status | Created (UTC) | Changed |
            |---:|---|---|---|---|---:|
            | 4 | `mail` | `mail.message` | rejected | 1970-01-01 00:00 | 2 |

            """)
    }
}
