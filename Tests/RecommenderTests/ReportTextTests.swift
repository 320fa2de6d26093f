import CivilTime
import Foundation
import Menus
import Recommender
import Reports
import Testing

@Suite("Report text rendering")
struct ReportTextTests {
    let document = ReportFixtures.document()
    let plain = TextReportRenderer(colour: false, titles: ReportFixtures.titles)

    @Test func mailExampleAsStored() {
        let expected = """
            mail.message  proposal 12  changed
            10,140 selections, 812 users, 120 dismissals

              new  command     share  move
                1  Reply      40.43%  =
                2  Forward    17.75%  ↑ 3→2
                3  Reply All  12.33%  ↓ 2→3
              ──────────────────────────────────────────────
                4  Archive     9.96%  ↑ 5→4
                5  Move...     8.19%  ↓ 4→5
                6  Flag        4.34%  =
              ──────────────────────────────────────────────
                7  Copy Link   2.96%  ← out of "Share" 7.1→7
                8  Delete      3.85%  ↔ 8, group 4→3
              ──────────────────────────────────────────────
                   Print       0.20%  pruned (was 7.2)

            Flagged for pruning:
              command  selections  user-days  share       interval  users  reach
              Print            20         20  0.20%  0.13% – 0.30%      9  used by 9 of 812 people (1.11%, 0.58% – 2.09%)

            Lint:
              warning  HIG-6  menus.mail.message.groups  the menu has 4 groups; keep to at most 3 by merging related groups

            Scan depth: 2.83 → 2.73 items per selection, about 0.02 s saved per selection
            Evidence: 0.20% of selections displaced by pruning (a pruned command counts 11 items scanned)
            Evidence: expected selection time 0.67 s → 0.65 s (0.02 s faster; model: Cockburn, Gutwin & Greenberg, CHI 2007 (model); Card, Moran & Newell 1983 (parameters): search 0.23 s/item, Hick-Hyman 0.15 s/bit, Fitts 0.1 s/bit, submenu delay 0.4 s)
            Step: promote: 2 moves, scan depth 2.73, 0.65 s per pick, 100.00% of the best gain; not filed: leaves HIG-6, which a larger step fixes
            Step: reorder: 2 moves, scan depth 2.73, 0.65 s per pick, 100.00% of the best gain; not filed: leaves HIG-6, which a larger step fixes
            Step: regroup (filed): 2 moves, scan depth 2.73, 0.65 s per pick, 100.00% of the best gain

            """
        #expect(plain.render(document) == expected)
    }

    @Test func reportHasAHeaderAndEveryElementType() {
        let text = plain.render(ReportFixtures.report())
        #expect(text.hasPrefix("mail: 2026-11-01 to 2026-11-28, 1 element type, 1 with changes\n\nmail.message  proposal 12"))
        #expect(text.hasSuffix(plain.render(document)))
    }

    @Test func withoutTitlesCommandIdsAreShown() {
        let text = TextReportRenderer(colour: false).render(document)
        #expect(text.contains("    3  reply_all  12.33%  ↓ 2→3\n"))
        #expect(text.contains("       print       0.20%  pruned (was 7.2)\n"))
    }

    @Test func colourCodesOnlyWhenAsked() {
        #expect(!plain.render(document).contains("\u{1B}"))
        #expect(!plain.render(ReportFixtures.report()).contains("\u{1B}"))
        let coloured = TextReportRenderer(colour: true, titles: ReportFixtures.titles).render(document)
        #expect(coloured.contains("\u{1B}[32m↑ 3→2\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[31mpruned (was 7.2)\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[33mwarning\u{1B}[0m"))
        // Colour changes nothing else: without its codes the text is the plain text, alignment included.
        #expect(Self.strippingEscapes(coloured) == plain.render(document))
    }

    @Test func noTrailingSpaces() {
        for line in plain.render(document).split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(!line.hasSuffix(" "), "trailing space in \(line)")
        }
    }

    @Test func cyrillicTitlesStayAligned() throws {
        let commands: [String: CommandInfo] = [
            "reply": CommandInfo(title: "Ответить"), "forward": CommandInfo(title: "Переслать"),
            "reply_all": CommandInfo(title: "Ответить всем"), "archive": CommandInfo(title: "В архив"),
            "move": CommandInfo(title: "Переместить…"), "flag": CommandInfo(title: "Флажок", keep: true),
            "copy_link": CommandInfo(title: "Скопировать ссылку"), "print": CommandInfo(title: "Напечатать"),
            "delete": CommandInfo(title: "Удалить", destructive: true),
        ]
        let menu = ElementMenu(layout: Layout(groups: [
            [.command("reply"), .command("reply_all"), .command("forward")],
            [.command("move"), .command("archive"), .command("flag")],
            [.submenu(Submenu(title: "Поделиться", items: [.command("copy_link"), .command("print")]))],
            [.command("delete")],
        ]))
        let russian = ReportFixtures.document(menu: menu, commands: commands)
        let text = TextReportRenderer(colour: false, titles: commands.mapValues(\.title)).render(russian)
        let rows = text.split(separator: "\n").filter {
            $0.contains("%") && !$0.contains("–") && !$0.hasPrefix("Evidence:") && !$0.hasPrefix("Scan depth:") && !$0.hasPrefix("Step:")
        }
        #expect(rows.count == 9)
        // The share column ends at the same character (not byte) offset on every row...
        let ends = Set(rows.map { $0.distance(from: $0.startIndex, to: $0.firstIndex(of: "%")!) })
        #expect(ends.count == 1)
        // ...although the byte offsets differ, so counting bytes would have broken it.
        let byteEnds = Set(rows.map { $0.utf8.distance(from: $0.utf8.startIndex, to: $0.utf8.firstIndex(of: UInt8(ascii: "%"))!) })
        #expect(byteEnds.count > 1)
        #expect(text.contains("← out of \"Поделиться\" 7.1→7"))
        let prune = try #require(text.split(separator: "\n").first { $0.contains("Напечатать") && $0.contains("–") })
        let header = try #require(text.split(separator: "\n").first { $0.contains("interval") })
        // Right-aligned columns end where their headers end; the reach column starts where its header does.
        let users = try #require(header.range(of: "users"))
        #expect(prune.distance(from: prune.startIndex, to: prune.range(of: "used by")!.lowerBound)
            == header.distance(from: header.startIndex, to: header.range(of: "reach")!.lowerBound))
        #expect(prune[prune.index(prune.startIndex, offsetBy: header.distance(from: header.startIndex, to: users.upperBound) - 1)] == "9")
    }

    @Test func submenusOfAProposalAreShownWithTheirItems() {
        // A menu with a submenu whose most-used command the proposal promotes out of it: the
        // proposal keeps the submenu, drawn with its items, and says where the command went.
        let ids = ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3", "c4"]
        var commands: [String: CommandInfo] = [:]
        for id in ids { commands[id] = CommandInfo(title: id.uppercased()) }
        let menu = ElementMenu(layout: Layout(groups: [
            ids.prefix(6).map { MenuItem.command($0) },
            [.submenu(Submenu(title: "More C", items: ids.suffix(4).map { MenuItem.command($0) }))],
        ]))
        var selections: [String: Int] = [:]
        for (i, id) in ids.enumerated() { selections[id] = i < 6 ? 1000 - 20 * i : 400 }
        selections["c1"] = 3000
        let doc = ReportFixtures.document(menu: menu, commands: commands, selections: selections)
        let submenu = doc.proposed.groups.flatMap { $0 }.compactMap { item -> Submenu? in
            if case let .submenu(s) = item { return s } else { return nil }
        }.first
        #expect(submenu != nil)
        let text = TextReportRenderer(colour: false).render(doc)
        if let submenu {
            #expect(text.contains("▸ " + submenu.title))
            #expect(submenu.items.count < 4, "the most-used c command left the submenu: \(doc.proposed)")
        }
    }

    @Test func proposalList() {
        let created = UTCTimestamp(microsecondsSince1970: 1_796_035_200_000_000)  // 2026-11-30 10:40 UTC
        let list = [
            ProposalSummary(id: 12, app: "mail", elementType: "mail.message", status: "pending", created: created,
                            changedItems: 7),
            ProposalSummary(id: 3, app: "photos", elementType: "photos.asset", status: "accepted",
                            created: UTCTimestamp(microsecondsSince1970: created.microsecondsSince1970
                                                      - 40 * UTCTimestamp.microsecondsPerDay),
                            changedItems: 12),
        ]
        let expected = """
            ID  APP     ELEMENT TYPE  STATUS    CREATED (UTC)     CHANGED
            12  mail    mail.message  pending   2026-11-30 10:40        7
             3  photos  photos.asset  accepted  2026-10-21 10:40       12

            """
        #expect(TextReportRenderer(colour: false).render(list) == expected)
        let coloured = TextReportRenderer(colour: true).render(list)
        #expect(coloured.contains("\u{1B}[32maccepted\u{1B}[0m"))
        #expect(Self.strippingEscapes(coloured) == expected)
        #expect(TextReportRenderer(colour: false).render([ProposalSummary]()) == "No proposals.\n")
        #expect(ProposalSummary.jsonText(list).hasPrefix(
            #"[{"id":12,"app":"mail","element_type":"mail.message","status":"pending","created":"2026-11-30T10:40:00Z","changed_items":7}"#))
    }

    static func strippingEscapes(_ text: String) -> String {
        var out = ""
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" { inEscape = true; continue }
            out.unicodeScalars.append(scalar)
        }
        return out
    }
}
