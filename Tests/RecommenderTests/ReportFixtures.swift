import CivilTime
import Foundation
import Menus
import Ranking
import Recommender
import Reports

/// The DESIGN.md mail example as report documents, built through the real ranker, recommender and
/// linter, so the report tests exercise what `menurank recommend` does.
enum ReportFixtures {
    static let elementType = "mail.message"
    /// 2026-11-28 as a day index since 1970-01-01.
    static let asOf = CivilDate(dayNumber: 20_785)

    static let commands = MailExample.commands
    static let menu = MailExample.menu
    static let selections = MailExample.selections

    static let users: [String: Int] = [
        "reply": 700, "forward": 410, "reply_all": 330, "archive": 290, "move": 260,
        "flag": 120, "copy_link": 95, "delete": 150, "print": 9,
    ]

    static var titles: [String: String] { commands.mapValues(\.title) }

    /// The ranking of the window: every selection on the window's last day, 120 dismissals.
    static func usage(selections: [String: Int] = selections, users: [String: Int] = users) -> ElementTypeUsage {
        let days = selections.keys.sorted().map { CommandDay(day: asOf, command: $0, selections: selections[$0]!) }
        let activity = ElementTypeActivity(elementType: elementType, days: days, dismissals: [asOf: 120],
                                           commandUsers: users, users: 812)
        return Ranker(window: RankingWindow(asOf: asOf)).rank(activity)
    }

    static func document(menu: ElementMenu = menu, commands: [String: CommandInfo] = commands,
                         selections: [String: Int] = selections, proposalID: Int? = 12) -> ProposalDocument
    {
        let usage = usage(selections: selections)
        let proposal = Recommender().recommend(current: menu, commands: commands, usage: usage.usageCounts,
                                                 menuUsers: usage.users)
        let lint = ManifestLinter().lint(elementType: elementType, menu: menu, commands: commands,
                                         usage: ElementUsage(selections: selections, dismissals: usage.dismissals))
        return ProposalDocument(elementType: elementType, current: menu.layout, proposal: proposal, usage: usage,
                                lint: lint, proposalID: proposalID)
    }

    static func report() -> RecommendReport {
        RecommendReport(app: "mail", window: RankingWindow(asOf: asOf), elementTypes: [document()])
    }
}
