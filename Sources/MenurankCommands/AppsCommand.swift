import ArgumentParsing
import CivilTime
import Foundation
import JSON
import Postgres
import Reports
import Storage

/// `menurank apps create|list|rotate-key|revoke-key`: apps and their API keys.
extension Menurank {
    static let appsCommand = CommandSpec(
        name: "apps",
        abstract: "Create apps and manage their API keys.",
        discussion: """
            Each app has write keys (send events) and read keys (fetch layouts). Keys are stored \
            hashed: a key is shown once, when it is created or rotated; listings show only its \
            prefix (mrk_w_XXXXXXXX), which is also what revoke-key takes.
            """,
        subcommands: [appsCreate, appsList, appsSet, appsRotateKey, appsRevokeKey, appsDelete])

    static let appsCreate = CommandSpec(
        name: "create",
        abstract: "Create an app and print its first write key and read key (shown once).",
        options: [
            createFormat.spec,
        ],
        arguments: [newAppName.spec],
        validate: { values in
            do throws(StorageError) {
                try AppStore.validate(name: values[newAppName])
            } catch {
                throw CLIError.usage(error.message)
            }
        },
        run: { context in try await BlockingThread.run {
                let name = context.values[newAppName]
                let pool = try CommandDatabase.pool(context.values, application: "menurank-apps")
                defer { pool.close() }
                let created: CreatedApp
                do throws(StorageError) {
                    created = try AppStore(pool: pool).create(name: name)
                } catch {
                    throw CLIError.failure(error.kind == .alreadyExists ? error.message : nil, causedBy: error)
                }
                if context.values[createFormat] == .json {
                    let document: JSONValue = ["app": .string(name), "write_key": .string(created.writeKey),
                                               "read_key": .string(created.readKey)]
                    context.console.print(document.jsonText)
                } else {
                    context.console.print("created app \(name)")
                    context.console.print("write key: \(created.writeKey)")
                    context.console.print("read key:  \(created.readKey)")
                    context.console.printError("Keep the keys now: they are stored hashed and cannot be shown again.")
                }
            } })

    static let appsList = CommandSpec(
        name: "list",
        abstract: "List apps and their keys (prefixes only).",
        options: [textOrJSON.spec],
        run: { context in try await BlockingThread.run {
                let pool = try CommandDatabase.pool(context.values, application: "menurank-apps")
                defer { pool.close() }
                let store = AppStore(pool: pool)
                let apps: [AppRecord]
                let keys: [KeyRecord]
                do {
                    apps = try store.apps()
                    keys = try store.keys()
                } catch {
                    throw CommandDatabase.failure(error)
                }
                if context.values[textOrJSON] == .json {
                    let document: JSONValue = .array(apps.map { app in
                        [
                            "app": .string(app.name), "created_at": .string(Self.timestamp(app.createdAt)),
                            "keys": .array(keys.filter { $0.appID == app.appID }.map { key in
                                [
                                    "prefix": .string(key.prefix), "kind": .string(key.kind.rawValue),
                                    "created_at": .string(Self.timestamp(key.createdAt)),
                                    "revoked_at": key.revokedAt.map { .string(Self.timestamp($0)) } ?? .null,
                                ]
                            }),
                        ]
                    })
                    context.console.print(document.jsonText)
                    return
                }
                if apps.isEmpty {
                    context.console.print("no apps; create one with: menurank apps create NAME")
                    return
                }
                for app in apps {
                    context.console.print("\(app.name)  (created \(Self.timestamp(app.createdAt)))")
                    for key in keys where key.appID == app.appID {
                        let state = key.revokedAt.map { "revoked \(Self.timestamp($0))" } ?? "active"
                        context.console.print("  \(key.kind.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)) \(key.prefix)  created \(Self.timestamp(key.createdAt))  \(state)")
                    }
                }
            } })

    static let newAppName: Argument<String> = .required(
        "name", help: "The app's name: 1-64 letters, digits, '.', '_' or '-'.")
    static let appName: Argument<String> = .required("name", help: "The app.")
    static let keyPrefix: Argument<String> = .required("key-prefix", help: "The prefix apps list shows (or the whole key).")

    static let createFormat: Option<TextOrJSON> = .format(
        valueName: "format", help: "text, or json: {\"app\": NAME, \"write_key\": ..., \"read_key\": ...}.")
    static let textOrJSON: Option<TextOrJSON> = .format(valueName: "format", help: "text or json.")

    static let rotateKind: Option<KeyKind> = .required("kind", valueName: "kind", help: "write or read.")

    static let appsRotateKey = CommandSpec(
        name: "rotate-key",
        abstract: "Make a new key of a kind for an app and revoke its other keys of that kind.",
        options: [
            rotateKind.spec,
            textOrJSON.spec,
        ],
        arguments: [appName.spec],
        run: { context in try await BlockingThread.run {
                let pool = try CommandDatabase.pool(context.values, application: "menurank-apps")
                defer { pool.close() }
                let kind = context.values[rotateKind]
                let rotated: RotatedKey
                do throws(StorageError) {
                    rotated = try AppStore(pool: pool).rotateKey(appName: context.values[appName], kind: kind)
                } catch {
                    throw CLIError.failure(error.kind == .notFound ? error.message : nil, causedBy: error)
                }
                if context.values[textOrJSON] == .json {
                    let document: JSONValue = ["app": .string(rotated.appName), "kind": .string(kind.rawValue),
                                               "key": .string(rotated.key),
                                               "revoked": .array(rotated.revokedPrefixes.map { .string($0) })]
                    context.console.print(document.jsonText)
                } else {
                    context.console.print("\(kind.rawValue) key: \(rotated.key)")
                    for prefix in rotated.revokedPrefixes { context.console.print("revoked \(prefix)") }
                }
            } })

    static let appsRevokeKey = CommandSpec(
        name: "revoke-key",
        abstract: "Revoke a key by its prefix (mrk_w_XXXXXXXX); requests with it get 403.",
        arguments: [keyPrefix.spec],
        run: { context in try await BlockingThread.run {
                let pool = try CommandDatabase.pool(context.values, application: "menurank-apps")
                defer { pool.close() }
                do throws(StorageError) {
                    let key = try AppStore(pool: pool).revokeKey(prefix: context.values[keyPrefix])
                    context.console.print("revoked \(key.kind.rawValue) key \(key.prefix) of \(key.appName)")
                } catch {
                    throw CLIError.failure(error.kind == .notFound || error.kind == .invalidArgument ? error.message : nil,
                                           causedBy: error)
                }
            } })

    /// `2026-11-29T10:00:05Z` (the fraction cut off, as reports write it).
    static func timestamp(_ instant: UTCTimestamp) -> String {
        ReportDate.timestamp(instant)
    }
}
