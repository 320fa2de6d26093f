import ArgumentParsing
import Foundation
import JSON
import Postgres
import Storage

/// `menurank tokens create|list|revoke`: admin tokens for the review page and the admin API.
extension Menurank {
    static let tokenHolder: Argument<String> = .required(
        "name", help: "Who holds it (a person or a bot): 1-64 letters, digits, '.', '_', '@', '+', '-'.")
    static let tokenToRevoke: Argument<String> = .required(
        "token", help: "The token's name, the prefix tokens list shows, or the whole token.")
    static let tokenApp: Option<String?> = .string(
        "app", valueName: "name", help: "Only this app's proposals (default: every app).")
    static let tokenCreateFormat: Option<TextOrJSON> = .format(
        valueName: "format", help: "text, or json: {\"name\", \"app\", \"prefix\", \"token\"}.")

    static let tokensCommand = CommandSpec(
        name: "tokens",
        abstract: "Create, list and revoke admin tokens (review in the browser).",
        discussion: """
            An admin token (mrk_a_...) signs a reviewer in to the review page of menurank serve \
            (/admin) and its admin API: list proposals, show their diffs and evidence, accept or \
            reject them. Every decision records the token's name. Tokens are stored hashed and shown \
            once; they are never valid for ingestion or GET /v1/menus, and an app's write or read \
            key is never valid for the admin API. --app limits a token to one app's proposals.
            """,
        subcommands: [tokensCreate, tokensList, tokensRevoke])

    static let tokensCreate = CommandSpec(
        name: "create",
        abstract: "Create an admin token and print it (shown once).",
        options: [
            tokenApp.spec,
            tokenCreateFormat.spec,
        ],
        arguments: [tokenHolder.spec],
        validate: { values in
            do throws(StorageError) {
                try TokenStore.validate(name: values[tokenHolder])
            } catch {
                throw CLIError.usage(error.message)
            }
        },
        run: { context in try await BlockingThread.run {
                let pool = try CommandDatabase.pool(context.values, application: "menurank-tokens")
                defer { pool.close() }
                let created: CreatedToken
                do throws(StorageError) {
                    created = try TokenStore(pool: pool).create(name: context.values[tokenHolder],
                                                                appName: context.values[tokenApp])
                } catch {
                    throw CLIError.failure([.alreadyExists, .notFound, .invalidArgument].contains(error.kind)
                        ? error.message : nil, causedBy: error)
                }
                if context.values[tokenCreateFormat] == .json {
                    let document: JSONValue = .object([
                        ("name", .string(created.record.name)),
                        ("app", created.record.appName.map(JSONValue.string) ?? .null),
                        ("prefix", .string(created.record.prefix)),
                        ("token", .string(created.token)),
                    ])
                    context.console.print(document.jsonText)
                } else {
                    let scope = created.record.appName.map { "app \($0)" } ?? "every app"
                    context.console.print("created admin token \(created.record.name) for \(scope)")
                    context.console.print("token: \(created.token)")
                    context.console.printError("Keep the token now: it is stored hashed and cannot be shown again.")
                }
            } })

    static let tokensList = CommandSpec(
        name: "list",
        abstract: "List admin tokens (names, scopes and prefixes; never the tokens).",
        options: [textOrJSON.spec],
        run: { context in try await BlockingThread.run {
                let pool = try CommandDatabase.pool(context.values, application: "menurank-tokens")
                defer { pool.close() }
                let tokens: [TokenRecord]
                do {
                    tokens = try TokenStore(pool: pool).list()
                } catch {
                    throw CommandDatabase.failure(error)
                }
                if context.values[textOrJSON] == .json {
                    context.console.print(JSONValue.array(tokens.map { token in
                        .object([
                            ("name", .string(token.name)), ("app", token.appName.map(JSONValue.string) ?? .null),
                            ("prefix", .string(token.prefix)), ("created_at", .string(Self.timestamp(token.createdAt))),
                            ("revoked_at", token.revokedAt.map { .string(Self.timestamp($0)) } ?? .null),
                        ])
                    }).jsonText)
                    return
                }
                if tokens.isEmpty {
                    context.console.print("no admin tokens; create one with: menurank tokens create NAME")
                    return
                }
                var rows = [["name", "app", "prefix", "created", "state"]]
                for token in tokens {
                    rows.append([token.name, token.appName ?? "(all)", token.prefix, Self.timestamp(token.createdAt),
                                 token.revokedAt.map { "revoked \(Self.timestamp($0))" } ?? "active"])
                }
                context.console.write(PipelineRankOutput.aligned(rows, rightAligned: []))
            } })

    static let tokensRevoke = CommandSpec(
        name: "revoke",
        abstract: "Revoke an admin token by its name or prefix (mrk_a_XXXXXXXX); it stops working at once.",
        arguments: [tokenToRevoke.spec],
        run: { context in try await BlockingThread.run {
                let pool = try CommandDatabase.pool(context.values, application: "menurank-tokens")
                defer { pool.close() }
                do throws(StorageError) {
                    let token = try TokenStore(pool: pool).revoke(context.values[tokenToRevoke])
                    context.console.print("revoked admin token \(token.name) (\(token.prefix))")
                } catch {
                    throw CLIError.failure(error.kind == .notFound ? error.message : nil, causedBy: error)
                }
            } })
}
