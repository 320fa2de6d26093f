import CivilTime
import Foundation
import JSON
import Menus
import Ranking
import Recommender
import Reports
import TestSupport
import Testing

@Suite("Report documents: JSON shape, round trip, determinism")
struct ReportDocumentTests {
    let document = ReportFixtures.document()

    @Test func membersComeInTheDocumentedOrder() throws {
        let members = try #require(document.jsonValue.objectValue).map(\.key)
        #expect(members == ["element_type", "selections", "users", "dismissals", "changed", "proposal_id", "current",
                            "proposed", "commands", "prune", "lint", "unknown_commands", "scan_depth",
                            "time_saved_seconds", "moves", "unpinned", "evidence", "step", "ladder"])
        let command = try #require(document.jsonValue["commands"]?.arrayValue?.first?.objectValue).map(\.key)
        #expect(command == ["command", "selections", "user_days", "share", "share_low", "share_high", "users",
                            "reach_low", "reach_high"])
        let evidence = try #require(document.jsonValue["evidence"]?.objectValue).map(\.key)
        #expect(evidence == ["fallback_cost", "displaced_share", "seconds", "model", "stability", "tentative", "submenus",
                             "untitled_categories"])
        let prune = try #require(document.jsonValue["prune"]?.arrayValue?.first?.objectValue).map(\.key)
        #expect(prune == command)
        let lint = try #require(document.jsonValue["lint"]?.arrayValue?.first?.objectValue).map(\.key)
        #expect(lint == ["rule", "severity", "path", "message"])
        let scan = try #require(document.jsonValue["scan_depth"]?.objectValue).map(\.key)
        #expect(scan == ["current", "proposed"])
        let report = try #require(ReportFixtures.report().jsonValue.objectValue).map(\.key)
        #expect(report == ["app", "window", "element_types"])
    }

    @Test func layoutsHaveTheManifestShape() {
        let expected = #"{"groups":[["reply","reply_all","forward"],["move","archive","flag"],"#
            + #"[{"submenu":"Share","items":["copy_link","print"]}],["delete"]]}"#
        #expect(document.jsonValue["current"]?.jsonText == expected)
        #expect(document.jsonValue["proposed"]?.jsonText
            == #"{"groups":[["reply","forward","reply_all"],["archive","move","flag"],["copy_link","delete"]]}"#)
    }

    @Test func evidenceOfTheDesignExample() throws {
        #expect(document.selections == 10_140)
        #expect(document.users == 812)
        #expect(document.dismissals == 120)
        #expect(document.changed)
        #expect(document.proposalID == 12)
        let print = try #require(document.prune.first)
        #expect(document.prune.map(\.command) == ["print"])
        #expect(print.selections == 20)
        #expect(print.users == 9)
        #expect(ReportNumber.percent(print.share) == "0.20%")
        #expect(ReportNumber.percent(print.shareLow) == "0.13%")
        #expect(ReportNumber.percent(print.shareHigh) == "0.30%")
        #expect(document.commands.map(\.command)
            == ["reply", "forward", "reply_all", "archive", "move", "flag", "delete", "copy_link", "print"])
        #expect(document.lint.map(\.rule) == [.hig6])
        #expect(document.unknownCommands.isEmpty)
        // 28710 / 10140 and (27500 + 20 x 11) / 10140 items: the pruned print costs the current
        // layout's 10 items + 1.
        #expect(document.scanDepthCurrent == 2.8314)
        #expect(document.scanDepthProposed == 2.7337)
        #expect(document.evidence.fallbackCost == 11)
        #expect(document.evidence.displacedShare == 0.001972)
        #expect(abs(document.timeSavedSeconds - (document.evidence.secondsCurrent - document.evidence.secondsProposed)) < 1e-3)
        #expect(document.timeSavedSeconds > 0)
        #expect(document.jsonValue["scan_depth"]?.jsonText == #"{"current":2.8314,"proposed":2.7337}"#)
        #expect(document.jsonValue["commands"]?.arrayValue?.first?.jsonText
            == #"{"command":"reply","selections":4100,"user_days":4100,"share":0.404339,"share_low":0.394825,"share_high":0.413926,"users":700,"reach_low":0.836641,"reach_high":0.884087}"#)
    }

    @Test func movesCarryOldAndNewPositions() throws {
        let moves = Dictionary(uniqueKeysWithValues: document.moves.map { ($0.command, $0) })
        #expect(document.moves.map(\.command) == ReportFixtures.menu.layout.distinctCommands)
        #expect(moves["forward"]?.change == .movedUp)
        #expect(moves["forward"]?.from?.label == "3")
        #expect(moves["forward"]?.to?.label == "2")
        #expect(moves["copy_link"]?.from == ItemPosition(group: 3, path: [7, 1], submenus: ["Share"]))
        #expect(moves["copy_link"]?.to == ItemPosition(group: 3, path: [7], submenus: []))
        #expect(moves["print"]?.change == .pruned)
        #expect(moves["print"]?.to == nil)
        #expect(document.changedItemCount == 7)
        let json = try #require(document.jsonValue["moves"]?.arrayValue)
        #expect(json[8].jsonText
            == #"{"command":"delete","change":"regrouped","from":{"group":4,"path":[8],"submenus":[]},"to":{"group":3,"path":[8],"submenus":[]}}"#)
    }

    @Test func documentRoundTripsThroughJSON() throws {
        let back = try ProposalDocument(json: document.jsonValue)
        #expect(back == document)
        let text = document.jsonText()
        #expect(try ProposalDocument(jsonText: text).jsonText() == text)
        let pretty = document.jsonText(pretty: true)
        #expect(try ProposalDocument(jsonText: pretty).jsonText(pretty: true) == pretty)
        let report = ReportFixtures.report()
        #expect(try RecommendReport(jsonText: report.jsonText()) == report)
        #expect(try RecommendReport(jsonText: report.jsonText(pretty: true)).jsonText() == report.jsonText())
    }

    @Test func reportWindowIsInUTCDays() {
        let report = ReportFixtures.report()
        #expect(report.from == "2026-11-01")
        #expect(report.to == "2026-11-28")
        #expect(CivilDate(parsing: "2026-11-28") == ReportFixtures.asOf)
        #expect(ReportDate.day(CivilDate(dayNumber: 0)) == "1970-01-01")
        #expect(ReportDate.day(CivilDate(dayNumber: -1)) == "1969-12-31")
        #expect(ReportDate.day(CivilDate(dayNumber: 11_016)) == "2000-02-29")
        #expect(CivilDate(parsing: "2026-02-29") == nil)
    }

    @Test func unpinnedCommandsRoundTripAndAreShown() throws {
        var pinned = document
        pinned.unpinned = ["flag"]
        #expect(try ProposalDocument(json: pinned.jsonValue) == pinned)
        #expect(pinned.jsonValue["unpinned"]?.jsonText == #"["flag"]"#)
        #expect(TextReportRenderer(colour: false, titles: ReportFixtures.titles).render(pinned)
            .contains("\nPinned but moved (no room at their place): Flag\n"))
        #expect(MarkdownReportRenderer().render(pinned).contains("**Pinned but moved** (no room at their place): `flag`\n"))
        // A document stored before the member existed still reads.
        guard case let .object(members) = pinned.jsonValue else { Issue.record("not an object"); return }
        let older = try ProposalDocument(json: .object(members.filter { $0.key != "unpinned" }))
        #expect(older.unpinned.isEmpty)
    }

    @Test func sameInputsGiveTheSameBytes() {
        // The same counts inserted in another order, ranked and recommended again.
        var reversed: [String: Int] = [:]
        for key in ReportFixtures.selections.keys.sorted().reversed() { reversed[key] = ReportFixtures.selections[key] }
        let again = ReportFixtures.document(selections: reversed)
        #expect(again.jsonText() == document.jsonText())
        #expect(again.jsonText(pretty: true) == document.jsonText(pretty: true))
        let titles = ReportFixtures.titles
        #expect(TextReportRenderer(colour: true, titles: titles).render(again)
            == TextReportRenderer(colour: true, titles: titles).render(document))
        #expect(MarkdownReportRenderer(titles: titles).render(again) == MarkdownReportRenderer(titles: titles).render(document))
        #expect(HTMLReportRenderer(titles: titles).render(again) == HTMLReportRenderer(titles: titles).render(document))
    }

    @Test(arguments: [
        (0.404339250493, 6, "0.404339"), (0.0625, 6, "0.0625"), (3.0, 4, "3"), (-0.00000001, 6, "0"),
        (0.0000005, 6, "0.000001"), (-1.23456, 2, "-1.23"), (2.5, 0, "3"), (0.1 + 0.2, 6, "0.3"),
    ])
    func numbersAreWrittenDeterministically(value: Double, decimals: Int, text: String) {
        #expect(ReportNumber.decimal(value, decimals: decimals, trimmingZeros: true) == text)
    }

    @Test func groupingAndPercentages() {
        #expect(ReportNumber.grouped(10_140) == "10,140")
        #expect(ReportNumber.grouped(999) == "999")
        #expect(ReportNumber.grouped(-1_234_567) == "-1,234,567")
        #expect(ReportNumber.percent(0.001972) == "0.20%")
        #expect(ReportNumber.decimal(0.5, decimals: 3) == "0.500")
    }

    @Test func unchangedMenuHasNoMovesAndNullID() throws {
        let accepted = ElementMenu(layout: document.proposed)
        let unchanged = ReportFixtures.document(menu: accepted, proposalID: nil)
        #expect(!unchanged.changed)
        #expect(unchanged.proposed == unchanged.current)
        #expect(unchanged.changedItemCount == 0)
        #expect(unchanged.jsonValue["proposal_id"] == .null)
        // print is no longer in the menu: its selections are reported with their share.
        #expect(unchanged.unknownCommands.map(\.command) == ["print"])
        #expect(unchanged.unknownCommands.first?.selections == 20)
        #expect(try ProposalDocument(json: unchanged.jsonValue) == unchanged)
    }

    @Test func layoutCommandsWithoutUseAreListedWithAWideInterval() throws {
        let thin = ReportFixtures.document(selections: ["reply": 3, "forward": 1])
        let printRow = try #require(thin.evidence(for: "print"))
        #expect(printRow.selections == 0)
        #expect(printRow.share == 0)
        #expect(printRow.shareHigh > 0.4)
        #expect(thin.prune.isEmpty)
        #expect(thin.commands.count == 9)
    }

    @Test(arguments: [
        (#"{"element_type": 1}"#, "$.element_type", "expected a string, found a number"),
        (#"[]"#, "$", "expected an object, found an array"),
    ])
    func readingReportsWhereTheDocumentIsWrong(text: String, path: String, message: String) {
        #expect(throws: ReportError(kind: .invalidDocument, path: path, message: message)) {
            try ProposalDocument(jsonText: text)
        }
    }

    @Test func readingNamesTheFailingMember() throws {
        var json = document.jsonValue
        guard case var .object(members) = json else { Issue.record("not an object"); return }
        let index = try #require(members.firstIndex { $0.key == "commands" })
        members[index].value = [["command": "reply", "selections": 1, "share": "high", "share_low": 0,
                                 "share_high": 1, "users": 1]]
        json = .object(members)
        let error = try #require(throws: ReportError.self) { try ProposalDocument(json: json) }
        #expect(error.path == "$.commands[0].share")
        #expect(error.kind == .invalidDocument)

        let badLayout = document.jsonText().replacingOccurrences(of: #""proposed":{"groups":"#,
                                                                 with: #""proposed":{"groups":7,"x":"#)
        let layoutError = try #require(throws: ReportError.self) { try ProposalDocument(jsonText: badLayout) }
        #expect(layoutError.kind == .invalidLayout)
        #expect(layoutError.path == "$.proposed.groups")
        #expect(throws: ReportError.self) { try ProposalDocument(jsonText: "{") }
    }
}

/// `ReportNumber.decimal` writes its digits into a small buffer; these are the texts of the
/// straightforward version it replaced, on values of every size and sign, with and without
/// trailing zeros.
@Suite struct ReportNumberDecimalTests {
    static func reference(_ x: Double, decimals: Int, trimmingZeros: Bool) -> String {
        guard x.isFinite else { return "0" }
        var p = 1.0
        for _ in 0..<max(0, decimals) { p *= 10 }
        let scaledDouble = (x * p).rounded(.toNearestOrAwayFromZero)
        guard abs(scaledDouble) < 9e15 else { return "\(x)" }
        let scaled = Int64(scaledDouble)
        let negative = scaled < 0
        let magnitude = negative ? -scaled : scaled
        let unit = Int64(p)
        var whole = String(magnitude / unit)
        if decimals > 0 {
            var fraction = String(magnitude % unit)
            fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
            if trimmingZeros {
                while fraction.last == "0" { fraction.removeLast() }
            }
            if !fraction.isEmpty { whole += "." + fraction }
        }
        return negative && magnitude != 0 ? "-" + whole : whole
    }

    @Test func sameTextAsTheStraightforwardVersion() {
        var generator = SplitMix64(seed: 7)
        var values: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 0.0625, 0.404339, 3, 10, 1e-9, -1e-9, 123456.789, 0.000001,
                                0.0000005, -0.0000005, 9e14, 1e16, .infinity, -.infinity, .nan, 14.6397, 8.0712]
        for _ in 0..<20_000 {
            let magnitude = pow(10, Double.random(in: -8...12, using: &generator))
            values.append(Bool.random(using: &generator) ? magnitude : -magnitude)
        }
        for x in values {
            for decimals in [0, 1, 2, 4, 6] {
                for trimming in [false, true] {
                    #expect(ReportNumber.decimal(x, decimals: decimals, trimmingZeros: trimming)
                        == Self.reference(x, decimals: decimals, trimmingZeros: trimming), "\(x) \(decimals) \(trimming)")
                }
            }
        }
    }
}
