import ArgumentParsing
import Foundation
import Menus

/// Reading a manifest file for `menus import` and `lint`.
enum PipelineManifestFile {
    /// The file's text and what it loads as.
    /// - Throws: `CLIError.failure` when the file cannot be read; `ManifestError` when it does not load.
    static func load(_ path: String) throws -> (text: String, document: Swift.Result<ManifestDocument, ManifestError>) {
        let bytes = try PipelineFile.read(path)
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            return (text, .success(try ManifestParser.load(bytes: bytes)))
        } catch {
            return (text, .failure(error))
        }
    }

    /// `path: error: <json path>: message` lines for a manifest that does not load.
    static func errorLines(_ error: ManifestError, file: String) -> [String] {
        error.issues.map { "\(file): error: \($0.path): \($0.message)" }
    }
}
