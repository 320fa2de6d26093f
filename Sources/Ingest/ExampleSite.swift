import Foundation
import HTTP

/// The web example (`menurank serve --serve-example ROOT`): the files of
/// `ROOT/examples/web-context-menu/` at `/example/NAME`, and the browser client
/// `ROOT/clients/web/menurank.js` (with its `.d.ts`) beside them, so the page's
/// `import "./menurank.js"` finds it.
///
/// Nothing outside those files can be served: they are read once, at start, into memory (regular
/// files directly in the folder, not links, with a known type, at most 1 MiB each), and a request
/// only looks its last path segment up among their names. A `..`, an encoded slash or any other
/// name is a 404 before the file system is asked anything.
///
/// Each file goes out with a strict Content-Security-Policy: scripts, styles and images from the
/// page's own origin only, no inline script or style, requests to the page's origin and to the
/// API origin given (`--example-api`), no framing, no forms, no base URL.
public struct ExampleSite: Sendable {
    public struct File: Sendable {
        let contentType: String
        let body: [UInt8]
    }

    let files: [String: File]
    let policy: String

    /// Why the example cannot be served.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    static let types = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "json": "application/json", "ts": "text/plain; charset=utf-8",
    ]
    static let maxFileBytes = 1 << 20

    /// Loads the example under `root` (a checkout of menurank); `apiOrigin` is the origin of the
    /// daemon the page will call when it is not this one (for the policy's `connect-src`).
    public static func load(root: String, apiOrigin: String?) throws(LoadError) -> ExampleSite {
        let folder = URL(fileURLWithPath: root).appendingPathComponent("examples/web-context-menu")
        var files: [String: File] = [:]
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw LoadError(description: "cannot read \(folder.path): \(error.localizedDescription) (--serve-example takes the root of a menurank checkout)")
        }
        for name in names.sorted() {
            if let file = try read(folder.appendingPathComponent(name)) { files[name] = file }
        }
        guard files["index.html"] != nil else { throw LoadError(description: "\(folder.path) has no index.html") }
        let client = URL(fileURLWithPath: root).appendingPathComponent("clients/web")
        for name in ["menurank.js", "menurank.d.ts"] {
            guard let file = try read(client.appendingPathComponent(name)) else {
                throw LoadError(description: "\(client.path)/\(name) is missing or not a regular file")
            }
            files[name] = file
        }
        var connect = "'self'"
        if let apiOrigin { connect += " " + apiOrigin }
        let policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src \(connect); "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        return ExampleSite(files: files, policy: policy)
    }

    /// A servable file, or nil for what is skipped (a dot file, a link, a folder, an unknown type).
    private static func read(_ url: URL) throws(LoadError) -> File? {
        let name = url.lastPathComponent
        guard let first = name.unicodeScalars.first, first != ".",
              name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) })
        else { return nil }
        let type = name.hasSuffix(".d.ts") ? types["ts"] : types[url.pathExtension]
        guard let type else { return nil }
        // lstat: a symbolic link is skipped, never followed out of the folder.
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw LoadError(description: "cannot read \(url.path)")
        }
        guard data.count <= maxFileBytes else { throw LoadError(description: "\(url.path) is over 1 MiB") }
        return File(contentType: type, body: Array(data))
    }

    /// The answer to `GET /example/NAME` (`name` nil or empty: the page).
    func response(for name: String?) -> HTTPResponse {
        let key = (name?.isEmpty ?? true) ? "index.html" : name!
        guard let file = files[key] else {
            return .error(.notFound, message: "the example has no file \(key.prefix(100))")
        }
        return HTTPResponse(status: 200, headers: [
            "Content-Type": file.contentType,
            "Content-Security-Policy": policy,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "Cross-Origin-Resource-Policy": "same-origin",
            "Cache-Control": "no-cache",
        ], body: file.body)
    }
}
