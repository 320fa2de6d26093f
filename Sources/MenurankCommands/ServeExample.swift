import ArgumentParsing
import Ingest
import Storage

/// `serve --serve-example ROOT [--example-api URL]`: the web example page
/// (`examples/web-context-menu`, with `clients/web/menurank.js`) at `/example/`, for demos.
enum ServeExample {
    static let root: Option<String?> = .string(
        "serve-example", valueName: "checkout",
        help: "Serve the web example (examples/web-context-menu and clients/web of this menurank checkout) at /example/.")
    static let api: Option<String?> = .string(
        "example-api", valueName: "url",
        help: "The origin of the daemon the example page calls when it is not this one (allowed by the page's CSP).")

    static func validate(_ values: ParsedValues) throws {
        guard let api = values[api] else { return }
        if values[root] == nil { throw CLIError.usage("--example-api needs --serve-example") }
        if case .failure(let error) = AllowedOrigin.normalize(api) { throw CLIError.usage("--example-api: \(error.message)") }
    }

    /// The example to serve, or nil without `--serve-example`.
    static func site(_ values: ParsedValues) throws -> ExampleSite? {
        guard let root = values[root] else { return nil }
        let api = try values[api].map { try AllowedOrigin.normalize($0).get() }
        do throws(ExampleSite.LoadError) {
            return try ExampleSite.load(root: root, apiOrigin: api)
        } catch {
            throw CLIError.usage("--serve-example: \(error.description)")
        }
    }
}
