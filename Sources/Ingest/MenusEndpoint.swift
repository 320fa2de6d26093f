import HTTP
import Hashing
import JSON
import Storage

/// `GET /v1/menus` and `GET /v1/menus/{element_type}` with a read key: the current layouts as a
/// manifest (`{"app", "version", "commands", "menus"}`, each menu with the `menu_version` that apps
/// send back with their events; for an element type in a rollout, also its `rollout` member: the
/// new arm's id, salt, share, groups and menu version, docs/rollouts.md), with an ETag (a hash of the body, so it changes with any layout or
/// menu version) and 304 when the client's `If-None-Match` holds it.
struct MenusEndpoint: Sendable {
    let authenticator: Authenticator
    let reader: MenuReader
    let retryAfter: Int

    func handle(_ request: HTTPRequest, elementType: String?) -> RequestOutcome {
        let grant: KeyGrant
        switch authenticator.authenticate(request, as: .read) {
        case .success(let found): grant = found.grant
        case .failure(let error): return RequestOutcome(error)
        }
        if let refusal = CrossOrigin.refusal(request, grant: grant) {
            var outcome = RequestOutcome(refusal)
            outcome.grant(grant)
            return outcome
        }
        // A name outside the element-type rule (1-128 printable ASCII characters without spaces; a
        // percent-decoded path may hold anything, NUL included) cannot have a layout.
        if let elementType, !Self.isElementTypeName(elementType) {
            var outcome = RequestOutcome(HTTPResponse.error(.unknownElementType,
                                                            message: "element types are 1-128 printable ASCII characters without spaces"))
            outcome.grant(grant)
            return outcome
        }
        let menus: ServedMenus
        do {
            menus = try reader.currentMenus(appID: grant.appID, elementType: elementType)
        } catch where error.kind == .notFound {
            return RequestOutcome(IngestError.unknownKey)
        } catch {
            return RequestOutcome(IngestError.failure(error, retryAfter: retryAfter))
        }
        if let elementType, menus.menus.isEmpty {
            var outcome = RequestOutcome(HTTPResponse.error(.unknownElementType,
                                                            message: "the app has no layout for \(elementType.prefix(128))"))
            outcome.grant(grant)
            return outcome
        }
        let body = Array(Self.document(appName: grant.appName, menus: menus).jsonText.utf8)
        let etag = "\"" + Hex.encode(Array(SHA256.hash(body).prefix(16))) + "\""
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": "no-cache"]
        var outcome: RequestOutcome
        if let match = request.header("If-None-Match"), Self.matches(match, etag: etag) {
            outcome = RequestOutcome(HTTPResponse(status: 304, headers: headers))
        } else {
            headers.set("Content-Type", "application/json")
            outcome = RequestOutcome(HTTPResponse(status: 200, headers: headers, body: body))
        }
        outcome.grant(grant)
        return outcome
    }

    /// The element-type rule of DESIGN.md: 1-128 characters from `!` to `~`.
    static func isElementTypeName(_ name: String) -> Bool {
        let bytes = name.utf8
        return (1...128).contains(bytes.count) && bytes.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// True when the `If-None-Match` list holds `etag` (weak comparison) or is `*`.
    static func matches(_ header: String, etag: String) -> Bool {
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }

    /// The manifest-shaped document: members in a fixed order, commands and menus sorted by id,
    /// so the same layouts always give the same bytes (and ETag).
    static func document(appName: String, menus: ServedMenus) -> JSONValue {
        var used = Set<String>()
        var menuMembers: [(key: String, value: JSONValue)] = []
        for menu in menus.menus.sorted(by: { $0.elementType < $1.elementType }) {
            let layout = (try? JSONParser.parse(menu.layoutJSON)) ?? .array([])
            let groups: JSONValue = layout["groups"] ?? layout
            collectCommands(groups, into: &used)
            var members: [(key: String, value: JSONValue)] = [("menu_version", .string(menu.menuVersion)),
                                                              ("groups", groups)]
            if menu.editMenu { members.append(("edit_menu", true)) }
            if menu.preview { members.append(("preview", true)) }
            if let rollout = menu.rollout {
                let parsed = (try? JSONParser.parse(rollout.layoutJSON)) ?? .array([])
                let rolloutGroups: JSONValue = parsed["groups"] ?? parsed
                collectCommands(rolloutGroups, into: &used)
                members.append(("rollout", .object([
                    ("id", .number(JSONNumber(Int(rollout.id)))),
                    ("salt", .string(rollout.salt)),
                    ("share", .number(JSONNumber(rollout.share))),
                    ("groups", rolloutGroups),
                    ("menu_version", .string(rollout.menuVersion)),
                ])))
            }
            menuMembers.append((menu.elementType, .object(members)))
        }
        let attributes = Dictionary(menus.commands.map { ($0.command, $0) }, uniquingKeysWith: { first, _ in first })
        var commandMembers: [(key: String, value: JSONValue)] = []
        for command in used.sorted() {
            var members: [(key: String, value: JSONValue)] = []
            if let info = attributes[command] {
                members.append(("title", .string(info.title)))
                if info.destructive { members.append(("destructive", true)) }
                if info.pinned { members.append(("pinned", true)) }
                if info.keep { members.append(("keep", true)) }
                if let category = info.category { members.append(("category", .string(category))) }
            } else {
                members.append(("title", .string(command)))
            }
            commandMembers.append((command, .object(members)))
        }
        return .object([
            ("app", .string(appName)),
            ("version", .string(menus.manifestVersion)),
            ("commands", .object(commandMembers)),
            ("menus", .object(menuMembers)),
        ])
    }

    /// Command ids of a layout: strings in groups, and in the `items` of submenus.
    private static func collectCommands(_ value: JSONValue, into used: inout Set<String>) {
        switch value {
        case .string(let id): used.insert(id)
        case .array(let items): items.forEach { collectCommands($0, into: &used) }
        case .object:
            if let items = value["items"] { collectCommands(items, into: &used) }
        default: break
        }
    }
}
