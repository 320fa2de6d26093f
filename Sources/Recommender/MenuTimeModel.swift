import Foundation
public import Menus

/// Expected time to select a command from a context menu, after the structure of Cockburn, Gutwin
/// & Greenberg, "A Predictive Model of Menu Performance", CHI 2007, pp. 627-636: each menu level a
/// person goes through costs a decision (visual search while a novice, a Hick-Hyman choice once
/// expert, blended by the person's expertise with the item) plus pointing at the item (Fitts' law).
///
/// For an item at 0-based position p of a (sub)menu of n items, with expertise e in 0...1:
///
///     T = (1 - e) * searchPerItem * (p + 1)            novice: serial, self-terminating visual search
///       + e * (hickIntercept + hickPerBit * log2(n + 1))   expert: Hick-Hyman choice among n items
///       + fittsIntercept + fittsPerBit * log2(p + 1)   pointing p item heights down to an item 1 high
///
/// A command in a submenu adds the time of the submenu's item in its parent menu (one level each)
/// and the submenu's opening delay (`submenuDelay`: a cascading submenu opens only after the
/// pointer rests on its item; 0.4 s is Windows' default `MenuShowDelay`, documented by Microsoft
/// for the SystemParametersInfo setting SPI_SETMENUSHOWDELAY).
/// A command left out of a layout (pruned) costs a novice's search through `fallback` items without
/// finding it: searchPerItem * fallback.
///
/// Parameters (defaults): Card, Moran & Newell, "The Psychology of Human-Computer Interaction"
/// (1983), the Model Human Processor's typical values, which Cockburn et al. build on:
/// - searchPerItem 0.23 s: one eye movement and fixation per item read (230 ms, range 70-700);
/// - hickPerBit 0.15 s/bit, hickIntercept 0 s: Hick-Hyman choice reaction (150 ms/bit, 0-157);
/// - fittsPerBit 0.1 s/bit, fittsIntercept 0 s: Fitts' law pointing (100 ms/bit, 70-120).
/// Intercepts are 0: a constant per selection cancels between the current and proposed layouts.
///
/// Expertise: the share of a command's picks made by someone who had picked it before in the
/// window, 1 - users / selections (0 with no picks): a command picked once by each of many people
/// is picked by novices, one picked all day by few by experts.
public struct MenuTimeModel: Hashable, Sendable {
    public var searchPerItem: Double
    public var hickIntercept: Double
    public var hickPerBit: Double
    public var fittsIntercept: Double
    public var fittsPerBit: Double
    public var submenuDelay: Double

    public init(searchPerItem: Double = 0.23, hickIntercept: Double = 0, hickPerBit: Double = 0.15,
                fittsIntercept: Double = 0, fittsPerBit: Double = 0.1, submenuDelay: Double = 0.4)
    {
        self.submenuDelay = submenuDelay
        self.searchPerItem = searchPerItem
        self.hickIntercept = hickIntercept
        self.hickPerBit = hickPerBit
        self.fittsIntercept = fittsIntercept
        self.fittsPerBit = fittsPerBit
    }

    /// Where the model's parameters come from, for review output.
    public static let source = "Cockburn, Gutwin & Greenberg, CHI 2007 (model); Card, Moran & Newell 1983 (parameters)"

    /// The expertise of a command's picks: 1 - users / selections.
    public static func expertise(selections: Double, users: Int) -> Double {
        guard selections > 0 else { return 0 }
        return max(0, min(1, 1 - Double(users) / selections))
    }

    /// Seconds to select the item at `position` of a menu of `items` items.
    public func itemTime(position: Int, items: Int, expertise: Double) -> Double {
        let search = searchPerItem * Double(position + 1)
        let choice = hickIntercept + hickPerBit * log2(Double(items) + 1)
        let pointing = fittsIntercept + fittsPerBit * log2(Double(position) + 1)
        return (1 - expertise) * search + expertise * choice + pointing
    }

    /// Seconds to select every command of a layout (first listing; submenus at any depth, each
    /// level chosen with the command's own expertise: who picks it knows where it lives).
    public func commandTimes(of layout: Layout, expertise: (String) -> Double) -> [String: Double] {
        var out: [String: Double] = [:]
        func visit(_ items: [MenuItem], path: [(position: Int, items: Int)]) {
            for (position, item) in items.enumerated() {
                let here = path + [(position, items.count)]
                switch item {
                case let .command(id):
                    if out[id] == nil {
                        let e = expertise(id)
                        out[id] = here.reduce(0) { $0 + itemTime(position: $1.position, items: $1.items, expertise: e) }
                            + Double(here.count - 1) * submenuDelay
                    }
                case let .submenu(submenu):
                    visit(submenu.items, path: here)
                }
            }
        }
        visit(layout.groups.flatMap { $0 }, path: [])
        return out
    }

    /// Expected seconds per selection: sum over `commands` of weight / total x time, a command
    /// missing from the layout costing `fallback` items searched in vain.
    public func expectedTime(of layout: Layout, commands: [String], weight: (String) -> Double, total: Double,
                             expertise: (String) -> Double, fallback: Double) -> Double
    {
        guard total > 0 else { return 0 }
        let times = commandTimes(of: layout, expertise: expertise)
        var sum = 0.0
        for id in commands.sorted() {
            let w = max(0, weight(id))
            guard w > 0 else { continue }
            sum += w / total * (times[id] ?? searchPerItem * fallback)
        }
        return sum
    }
}
