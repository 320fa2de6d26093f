import ArgumentParsing
import JSON
import Postgres
import Storage

/// `menurank apps set APP`: an app's settings; today the browser origins allowed to call the API
/// with its keys (CORS, sql/0016).
extension Menurank {
    static let allowedOrigins: Option<[String]> = .repeating(
        "allowed-origin", valueName: "url",
        help: "A web page origin allowed to send events and read menus with the app's keys, e.g. https://mail.example.com "
            + "(repeat it for several; replaces the list).")
    static let clearAllowedOrigins: Option<Bool> = .flag(
        "clear-allowed-origins", help: "Allow no web page origin (the default of a new app).")

    static let appsSet = CommandSpec(
        name: "set",
        abstract: "Set an app's allowed web origins (CORS); without options, print them.",
        discussion: """
            Web pages on another origin may call POST /v1/events and GET /v1/menus with the app's keys \
            only from the origins listed here: each is scheme://host[:port] as the browser sends it in \
            Origin (https://mail.example.com, http://localhost:5173). --allowed-origin replaces the list; \
            --clear-allowed-origins empties it. The daemon reads the list with the key, so a change \
            takes effect within its --key-cache-ttl, and a browser may keep a preflight's answer for \
            10 minutes. A write key in a web page is public: anyone can read it and send events to \
            that app (and only to that app); see docs/privacy.md.
            """,
        options: [allowedOrigins.spec, clearAllowedOrigins.spec, textOrJSON.spec],
        arguments: [appName.spec],
        validate: { values in
            if values[clearAllowedOrigins] && !values[allowedOrigins].isEmpty {
                throw CLIError.usage("give --allowed-origin or --clear-allowed-origins, not both")
            }
            for origin in values[allowedOrigins] {
                if case .failure(let error) = AllowedOrigin.normalize(origin) { throw CLIError.usage(error.message) }
            }
        },
        run: { context in try await BlockingThread.run {
                let pool = try CommandDatabase.pool(context.values, application: "menurank-apps")
                defer { pool.close() }
                let name = context.values[appName]
                let given = context.values[allowedOrigins]
                let store = AppStore(pool: pool)
                let origins: [String]
                do throws(StorageError) {
                    if context.values[clearAllowedOrigins] || !given.isEmpty {
                        origins = try store.setAllowedOrigins(appName: name, given)
                    } else {
                        origins = try store.allowedOrigins(appName: name)
                    }
                } catch {
                    throw CLIError.failure(error.kind == .notFound || error.kind == .invalidArgument ? error.message : nil,
                                           causedBy: error)
                }
                if context.values[textOrJSON] == .json {
                    let document: JSONValue = ["app": .string(name), "allowed_origins": .array(origins.map { .string($0) })]
                    context.console.print(document.jsonText)
                } else if origins.isEmpty {
                    context.console.print("\(name): no allowed origins (web pages on other origins cannot call the API)")
                } else {
                    context.console.print("\(name): allowed origins \(origins.joined(separator: " "))")
                }
            } })
}
