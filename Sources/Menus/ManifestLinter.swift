/// Checks a manifest's menus against the HIG rules of DESIGN.md.
///
/// Rules and severities:
/// - HIG-1 (with usage), warning: an element type opened in telemetry without a declared menu; a
///   declared menu with commands that nobody opened over the window.
/// - HIG-2, warning: more top-level items than `maxGroups * maxGroupSize`; info: a group with more
///   than `maxGroupSize` items. (Rarely used commands are the recommender's prune flags, not lint.)
/// - HIG-3: error: an empty (or blank) submenu title; warning: a generic title (`isGenericSubmenuTitle`)
///   or an empty submenu; info: a submenu with a single item (put the item in its place).
/// - HIG-4, error: a submenu inside a submenu (each nested submenu is reported).
/// - HIG-5 (with usage), warning: the most-used command of the menu is not among the first
///   `maxGroupSize` top-level items of the first group (ties: any most-used command there is enough).
/// - HIG-6, warning: more than `maxGroups` groups.
/// - HIG-7, error: an element type with `edit_menu: true` whose context menu has commands.
/// - HIG-8, only for element types with `preview: true` (without a preview an "Open" command is the
///   way into the item, so nothing is reported): warning for an open command (title "Open" /
///   "Открыть", or an id whose last dot-separated part is `open`), info for a command opening the item
///   elsewhere (title starting "Open " / "Открыть ", such as "Open in New Window", or an id part such
///   as `OpenInRightSplit`, `open_with`), which can be legitimate.
/// - CONVENTION (`ManifestLinter+Conventions`): warning when Cut, Copy and Paste (declared or
///   title-inferred roles) are split across groups or submenus or out of their order, or when a
///   `together` set is split across groups or submenus; info when a set is listed in another order.
/// - STRUCTURE, warning: a command listed more than once in one menu (each repeat, pointing at the
///   first), an empty group, a menu with no groups on an element type without an edit menu.
/// - MANIFEST, info: a command declared in `commands` that no menu lists. (A member the format does not
///   define is a load error, not a finding: `ManifestParser`.)
public struct ManifestLinter: Sendable {
    public var options: LintOptions

    public init(options: LintOptions = LintOptions()) { self.options = options }

    /// Lints a loaded document's manifest.
    public func lint(_ document: ManifestDocument, usage: MenuUsage? = nil) -> LintReport {
        lint(document.manifest, usage: usage)
    }

    /// Lints a manifest. `usage` enables HIG-1 and HIG-5.
    public func lint(_ manifest: Manifest, usage: MenuUsage? = nil) -> LintReport {
        var findings: [LintFinding] = []
        for (elementType, menu) in manifest.menus {
            findings += lint(elementType: elementType, menu: menu, commands: manifest.commands,
                             together: manifest.together, usage: usage.map { $0[elementType] ?? ElementUsage(opens: 0) })
        }
        if let usage {
            for (elementType, use) in usage.elements where manifest.menus[elementType] == nil && use.effectiveOpens > 0 {
                findings.append(LintFinding(
                    rule: .hig1, severity: .warning, elementType: elementType, path: .menu(elementType),
                    message: "\(elementType) menus were opened \(use.effectiveOpens) times in telemetry, but the "
                        + "manifest declares no menu for this element type; declare it so its menu is "
                        + "consistent with the others"))
            }
        }
        let listed = Set(manifest.menus.values.flatMap(\.layout.commandsInOrder))
        for (id, info) in manifest.commands where !listed.contains(id) {
            findings.append(LintFinding(
                rule: .manifest, severity: .info, elementType: nil, path: .command(id),
                message: "\(Self.name(id, info)) is declared but no menu lists it"))
        }
        return LintReport(findings: findings)
    }

    /// The findings for one element type's menu. `commands` supplies titles (for messages and HIG-8)
    /// and roles, `together` the manifest's sets (CONVENTION); `usage` (nil: no usage data) enables
    /// HIG-1 "never opened" and HIG-5.
    public func lint(elementType: String, menu: ElementMenu, commands: [String: CommandInfo],
                     together: [[String]] = [], usage: ElementUsage? = nil) -> [LintFinding]
    {
        var findings: [LintFinding] = []
        func add(_ rule: LintRule, _ severity: LintSeverity, _ path: ManifestPath, _ message: String) {
            findings.append(LintFinding(rule: rule, severity: severity, elementType: elementType, path: path,
                                        message: message))
        }
        func name(_ id: String) -> String { Self.name(id, commands[id]) }

        let layout = menu.layout
        let menuPath = ManifestPath.menu(elementType)
        let groupsPath = ManifestPath.groups(elementType)
        let located = layout.locatedItems(under: groupsPath)
        let hasCommands = !layout.commandsInOrder.isEmpty

        if menu.editMenu && hasCommands {
            add(.hig7, .error, menuPath.appending("edit_menu"),
                "\(elementType) has both an edit menu and a context menu; give this element one or the other")
        }
        if layout.groups.isEmpty && !menu.editMenu {
            add(.structure, .warning, groupsPath,
                "the menu of \(elementType) has no items; give it commands or remove the element type")
        }
        if layout.groups.count > options.maxGroups {
            add(.hig6, .warning, groupsPath,
                "the menu has \(layout.groups.count) groups; keep to at most \(options.maxGroups) by merging related groups")
        }
        let topLevel = layout.topLevelItemCount
        if topLevel > options.maxTopLevelItems {
            add(.hig2, .warning, groupsPath,
                "the menu shows \(topLevel) items at the top level, more than the \(options.maxTopLevelItems) that "
                    + "\(options.maxGroups) groups of \(options.maxGroupSize) hold; keep the most-used commands "
                    + "and move the rest into a submenu")
        }
        for (g, group) in layout.groups.enumerated() {
            if group.isEmpty {
                add(.structure, .warning, groupsPath.appending(g),
                    "group \(g + 1) is empty (two separators with nothing between them); remove it")
            } else if group.count > options.maxGroupSize {
                add(.hig2, .info, groupsPath.appending(g),
                    "group \(g + 1) has \(group.count) items; groups of at most \(options.maxGroupSize) are quicker to scan")
            }
        }

        var firstSeen: [String: ManifestPath] = [:]
        for entry in located {
            switch entry.item {
            case let .command(id):
                if let first = firstSeen[id] {
                    add(.structure, .warning, entry.path,
                        "\(name(id)) is listed more than once in this menu (first at \(first)); keep one")
                } else {
                    firstSeen[id] = entry.path
                }
                if menu.preview {
                    switch Self.openLikeness(id: id, title: commands[id]?.title) {
                    case .open?:
                        add(.hig8, .warning, entry.path,
                            "\(name(id)) opens the item, which people already do by tapping its preview; remove it")
                    case .openElsewhere?:
                        add(.hig8, .info, entry.path,
                            "\(name(id)) opens the previewed item; keep it only if it opens somewhere the preview cannot")
                    case nil:
                        break
                    }
                }
            case let .submenu(sub):
                let title = "\"\(sub.title)\""
                if let outer = entry.enclosingSubmenus.last {
                    add(.hig4, .error, entry.path,
                        "submenu \(title) is nested inside submenu \"\(outer)\"; keep submenus to one level")
                }
                if sub.title.allSatisfy(\.isWhitespace) {
                    add(.hig3, .error, entry.path.appending("submenu"),
                        "a submenu has no title; give it a short title saying what it holds")
                } else if Self.isGenericSubmenuTitle(sub.title) {
                    add(.hig3, .warning, entry.path.appending("submenu"),
                        "submenu title \(title) does not say what it holds; name it after its commands")
                }
                if sub.items.isEmpty {
                    add(.hig3, .warning, entry.path.appending("items"), "submenu \(title) is empty; remove it")
                } else if sub.items.count == 1 {
                    let only: String
                    switch sub.items[0] {
                    case let .command(id): only = name(id)
                    case let .submenu(inner): only = "submenu \"\(inner.title)\""
                    }
                    add(.hig3, .info, entry.path,
                        "submenu \(title) holds a single item; put \(only) in its place")
                }
            }
        }

        findings += Self.conventionFindings(elementType: elementType, located: located, commands: commands,
                                            together: together)

        if let usage {
            if usage.effectiveOpens == 0 && hasCommands {
                add(.hig1, .warning, menuPath,
                    "nobody opened the menu of \(elementType) in the usage window; make it reachable the way "
                        + "other elements' menus are, or remove it")
            }
            if let finding = mostUsedNotNearTop(layout: layout, located: located, usage: usage, name: name) {
                add(.hig5, .warning, finding.path, finding.message)
            }
            if let finding = Self.highDismissalRate(elementType: elementType, usage: usage, path: menuPath) {
                findings.append(finding)
            }
        }
        return findings
    }

    /// HIG-5: the most-used command should be among the first `maxGroupSize` items of the first group.
    private func mostUsedNotNearTop(layout: Layout, located: [LocatedMenuItem], usage: ElementUsage,
                                    name: (String) -> String) -> (path: ManifestPath, message: String)?
    {
        let order = layout.distinctCommands
        let best = order.map { usage.selections[$0] ?? 0 }.max() ?? 0
        guard best > 0 else { return nil }
        let nearTop: Set<String> = Set((layout.groups.first ?? []).prefix(options.maxGroupSize).compactMap {
            if case let .command(id) = $0 { return id } else { return nil }
        })
        let top = order.filter { (usage.selections[$0] ?? 0) == best }
        guard !top.contains(where: nearTop.contains), let id = top.first,
              let entry = located.first(where: { $0.item == .command(id) })
        else { return nil }
        let total = layout.distinctCommands.reduce(0) { $0 + (usage.selections[$1] ?? 0) }
        let position = (layout.commandsInOrder.firstIndex(of: id) ?? 0) + 1
        let place = entry.enclosingSubmenus.isEmpty
            ? "item \(position) in reading order"
            : "item \(position) in reading order, inside submenu \"\(entry.enclosingSubmenus[0])\""
        return (entry.path,
                "\(name(id)) is the most-used command of this menu (\(best) of \(total) selections, "
                    + "\(Self.percent(best, of: total))) but is \(place); put it among the first "
                    + "\(options.maxGroupSize) items of the first group")
    }

    /// `"Reply" (reply)`, or the bare id when the command is not declared.
    static func name(_ id: String, _ info: CommandInfo?) -> String {
        guard let info else { return id }
        return "\"\(info.title)\" (\(id))"
    }

    /// `40.4%`: a share to one decimal, rounded half up, without floating point.
    static func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "0.0%" }
        let perMille = (part * 2000 + whole) / (2 * whole)
        return "\(perMille / 10).\(perMille % 10)%"
    }
}
