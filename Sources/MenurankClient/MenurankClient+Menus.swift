import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension MenurankClient {
    /// Every served menu of the app. Asks the server with the read key and the cached ETag
    /// (`If-None-Match`); a 304 or an unreachable server (network error, 5xx) gives the copy cached
    /// on disk, marked `isFromCache` when the server was not reached. Throws when neither is there,
    /// or on 401/403.
    ///
    /// For an element type in a rollout the layout is the arm of `user` (by default the configured
    /// context's `user`; without one, the current layout), and every later event of that element
    /// type recorded without a `menuVersion` carries the shown layout's.
    public func layouts(user: String? = nil) async throws(MenurankClientError) -> MenuLayouts {
        let document = try await fetch(path: nil, cacheName: "all")
        let layouts = try Self.parse(document.body, fromCache: document.fromCache, user: user ?? configuration.context.user)
        remember(layouts.menus.values)
        return layouts
    }

    /// The served menu of one element type; nil when the server has none for it (use the app's
    /// own menu then). In a rollout, the arm of `user` as `layouts(user:)` picks it.
    public func layout(for elementType: String, user: String? = nil) async throws(MenurankClientError) -> MenuLayout? {
        let name = "type-" + elementType.utf8.map { String($0, radix: 16) }.joined()
        do {
            let document = try await fetch(path: elementType, cacheName: name)
            let layout = try Self.parse(document.body, fromCache: document.fromCache,
                                        user: user ?? configuration.context.user).menus[elementType]
            if let layout { remember([layout]) }
            return layout
        } catch where error.status == 404 {
            return nil
        }
    }

    private func fetch(path: String?, cacheName: String) async throws(MenurankClientError) -> (body: [UInt8], fromCache: Bool) {
        guard let readKey = configuration.readKey else {
            throw MenurankClientError(.missingReadKey, "layouts need the app's read key (configuration.readKey)")
        }
        let cacheDirectory = configuration.directory.appendingPathComponent("menus")
        try? FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        let bodyPath = cacheDirectory.appendingPathComponent(cacheName + ".json").path
        let tagPath = cacheDirectory.appendingPathComponent(cacheName + ".etag").path
        let cached = FileManager.default.contents(atPath: bodyPath).map { [UInt8]($0) }
        let cachedTag = FileManager.default.contents(atPath: tagPath).map { String(decoding: $0, as: UTF8.self) }

        var url = configuration.endpoint.appendingPathComponent("v1").appendingPathComponent("menus")
        if let path { url = url.appendingPathComponent(path) }
        var request = URLRequest(url: url)
        request.setValue("Bearer \(readKey)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if cached != nil, let cachedTag, !cachedTag.isEmpty { request.setValue(cachedTag, forHTTPHeaderField: "If-None-Match") }

        switch await transport.send(request) {
        case .failure(let failure):
            if let cached { return (cached, true) }
            throw MenurankClientError(.unreachable, "GET \(url.path): \(failure.description); no cached layout")
        case .success(let response):
            switch response.status {
            case 200:
                try? POSIX.replaceAtomically(bodyPath, with: response.body, durable: false)
                if let tag = response.header("ETag") { try? POSIX.replaceAtomically(tagPath, with: Array(tag.utf8), durable: false) }
                return (response.body, false)
            case 304:
                if let cached { return (cached, false) }
                throw MenurankClientError(.invalidResponse, "304 without a cached layout", status: 304)
            case 401, 403:
                throw MenurankClientError(.unauthorized, "GET \(url.path): HTTP \(response.status)", status: response.status)
            case 404:
                throw MenurankClientError(.endpoint, "GET \(url.path): not found", status: 404)
            default:
                if response.status >= 500 || response.status == 429, let cached { return (cached, true) }
                throw MenurankClientError(.server, "GET \(url.path): HTTP \(response.status)", status: response.status)
            }
        }
    }

    /// The manifest-shaped document: `{"app", "version", "commands": {id: {"title", ...}},
    /// "menus": {type: {"groups": [[id | {"submenu", "items"}]], "menu_version", "rollout"?}}}`; for a
    /// menu with a `rollout` member, the arm of `user` (none: the current layout).
    static func parse(_ body: [UInt8], fromCache: Bool, user: String? = nil) throws(MenurankClientError) -> MenuLayouts {
        guard let root = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let menus = root["menus"] as? [String: Any]
        else { throw MenurankClientError(.invalidResponse, "the menus document is not a manifest") }
        let version = root["version"] as? String ?? ""
        let commands = root["commands"] as? [String: Any] ?? [:]
        func command(_ id: String) -> MenuCommand {
            let attributes = commands[id] as? [String: Any] ?? [:]
            return MenuCommand(id: id, title: attributes["title"] as? String ?? id,
                               isDestructive: attributes["destructive"] as? Bool ?? false)
        }
        func rows(_ groups: [Any]) -> [[MenuItem]] {
            var rows: [[MenuItem]] = []
            for group in groups {
                // A group is an array of items, or `{"title", "items"}`.
                let entries = group as? [Any] ?? ((group as? [String: Any])?["items"] as? [Any] ?? [])
                rows.append(entries.compactMap { entry -> MenuItem? in
                    if let id = entry as? String { return .command(command(id)) }
                    guard let submenu = entry as? [String: Any], let items = submenu["items"] as? [Any] else { return nil }
                    return .submenu(title: submenu["submenu"] as? String ?? submenu["title"] as? String ?? "",
                                    commands: items.compactMap { $0 as? String }.map(command))
                })
            }
            return rows
        }
        var layouts: [String: MenuLayout] = [:]
        for (elementType, value) in menus {
            guard let menu = value as? [String: Any], let groups = menu["groups"] as? [Any] else { continue }
            var layout = MenuLayout(elementType: elementType, menuVersion: menu["menu_version"] as? String ?? version,
                                    groups: rows(groups))
            // A rollout member that does not read is left out: the current layout stays valid.
            if let member = menu["rollout"] as? [String: Any], let id = (member["id"] as? NSNumber)?.intValue,
               let salt = member["salt"] as? String, let share = (member["share"] as? NSNumber)?.doubleValue,
               let rolloutVersion = member["menu_version"] as? String, let rolloutGroups = member["groups"] as? [Any]
            {
                let rollout = MenuRollout(id: id, salt: salt, share: share, menuVersion: rolloutVersion,
                                          groups: rows(rolloutGroups))
                layout.rollout = rollout
                if let user, RolloutArm.showsRollout(salt: salt, user: user, share: share) {
                    layout.groups = rollout.groups
                    layout.menuVersion = rollout.menuVersion
                    layout.isRolloutArm = true
                }
            }
            layouts[elementType] = layout
        }
        return MenuLayouts(app: root["app"] as? String ?? "", menuVersion: version, menus: layouts, isFromCache: fromCache)
    }
}
