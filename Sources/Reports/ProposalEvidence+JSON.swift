public import JSON
import Recommender

extension ProposalEvidence {
    /// `{"fallback_cost", "displaced_share", "seconds": {"current", "proposed"}, "model": {"source",
    /// "search_per_item", "hick_intercept", "hick_per_bit", "fitts_intercept", "fitts_per_bit",
    /// "submenu_delay"}, "stability" (null when not computed), "tentative", "submenus": [{"title",
    /// "categories": [{"name", "title" (null when untitled)}]}], "untitled_categories"}`.
    public var jsonValue: JSONValue {
        func category(_ origin: CategoryOrigin) -> JSONValue {
            ["name": .string(origin.name), "title": origin.title.map(JSONValue.string) ?? .null]
        }
        func number(_ x: Double) -> JSONValue { ReportJSON.number(x, decimals: 6) }
        return [
            "fallback_cost": ReportJSON.number(fallbackCost, decimals: ReportNumber.scanDepthDecimals),
            "displaced_share": ReportJSON.number(displacedShare, decimals: ReportNumber.shareDecimals),
            "seconds": [
                "current": ReportJSON.number(secondsCurrent, decimals: ReportNumber.secondsDecimals),
                "proposed": ReportJSON.number(secondsProposed, decimals: ReportNumber.secondsDecimals),
            ],
            "model": [
                "source": .string(MenuTimeModel.source),
                "search_per_item": number(model.searchPerItem),
                "hick_intercept": number(model.hickIntercept),
                "hick_per_bit": number(model.hickPerBit),
                "fitts_intercept": number(model.fittsIntercept),
                "fitts_per_bit": number(model.fittsPerBit),
                "submenu_delay": number(model.submenuDelay),
            ],
            "stability": stability.map { ReportJSON.number($0, decimals: ReportNumber.shareDecimals) } ?? .null,
            "tentative": .bool(tentative),
            "submenus": .array(submenus.map { submenu in
                ["title": .string(submenu.title), "categories": .array(submenu.categories.map(category))]
            }),
            "untitled_categories": .array(untitledCategories.map(category)),
        ]
    }

    /// Reads `jsonValue`; errors name `path`.
    init(json: JSONValue, path: String) throws(ReportError) {
        let object = try ReportJSON.Object(json, path: path)
        func categories(_ key: String, in object: ReportJSON.Object) throws(ReportError) -> [CategoryOrigin] {
            var out: [CategoryOrigin] = []
            for (value, elementPath) in try object.array(key) {
                let item = try ReportJSON.Object(value, path: elementPath)
                out.append(CategoryOrigin(name: try item.string("name"), title: try item.optionalString("title")))
            }
            return out
        }
        let seconds = try object.object("seconds")
        let model = try object.object("model")
        var submenus: [ProposedSubmenu] = []
        for (value, elementPath) in try object.array("submenus") {
            let item = try ReportJSON.Object(value, path: elementPath)
            submenus.append(ProposedSubmenu(title: try item.string("title"), categories: try categories("categories", in: item)))
        }
        self.init(
            fallbackCost: try object.double("fallback_cost"), displacedShare: try object.double("displaced_share"),
            secondsCurrent: try seconds.double("current"), secondsProposed: try seconds.double("proposed"),
            model: MenuTimeModel(searchPerItem: try model.double("search_per_item"),
                                 hickIntercept: try model.double("hick_intercept"),
                                 hickPerBit: try model.double("hick_per_bit"),
                                 fittsIntercept: try model.double("fitts_intercept"),
                                 fittsPerBit: try model.double("fitts_per_bit"),
                                 submenuDelay: try model.double("submenu_delay")),
            stability: try object.optionalNumber("stability"), tentative: try object.bool("tentative"),
            submenus: submenus, untitledCategories: try categories("untitled_categories", in: object))
    }
}
