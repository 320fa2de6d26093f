import ArgumentParsing
import Foundation
import Menus
import Nightly
import Reports

/// What `menurank recommend` prints or writes, from the nightly job's runs (`NightlyAppRun`).
enum PipelineRecommendOutput {
    /// One app's run: JSON (the report on one line), Markdown or text (coloured when `colour`).
    static func render(_ run: NightlyAppRun, format: DocumentFormat, colour: Bool = false) -> String {
        let names = run.commands.mapValues(\.title)
        switch format {
        case .json:
            return run.jsonText() + "\n"
        case .markdown:
            return MarkdownReportRenderer(titles: names).render(run.report)
        case .text:
            var out = TextReportRenderer(colour: colour, titles: names).render(run.report)
            if !run.appFindings.isEmpty {
                out += "\n" + run.appFindings.map { "\($0)\n" }.joined()
            }
            return out
        }
    }

    /// Colour on a terminal unless `NO_COLOR` is set (to anything but the empty string).
    static func colour(_ context: CommandContext) -> Bool {
        context.console.isOutputTerminal && (context.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// `--out DIR`: one file per app and element type, `<app>/<element type>.<json|md|txt>`, each
    /// holding that element type alone (JSON: the report with one entry).
    static func writeFiles(_ runs: [NightlyAppRun], format: DocumentFormat, directory: String, console: Console) throws {
        let ext = switch format {
        case .json: "json"
        case .markdown: "md"
        case .text: "txt"
        }
        for run in runs {
            let folder = URL(fileURLWithPath: directory).appendingPathComponent(safe(run.report.app))
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw CLIError.failure("cannot create \(folder.path): \(error.localizedDescription)")
            }
            let entries = format == .json ? run.entriesJSON() : []
            let names = run.commands.mapValues(\.title)
            for (index, document) in run.report.elementTypes.enumerated() {
                var single = run.report
                single.elementTypes = [document]
                let text = switch format {
                case .json: String(decoding: single.compactJSON(entries: [entries[index]]), as: UTF8.self) + "\n"
                case .markdown: MarkdownReportRenderer(titles: names).render(single)
                case .text: TextReportRenderer(colour: false, titles: names).render(single)
                }
                let file = folder.appendingPathComponent(safe(document.elementType) + "." + ext)
                do {
                    try text.write(to: file, atomically: true, encoding: .utf8)
                } catch {
                    throw CLIError.failure("cannot write \(file.path): \(error.localizedDescription)")
                }
                console.print("wrote \(file.path)")
            }
        }
    }

    /// A file name for an element type or app: `/` and leading dots replaced by `_`.
    private static func safe(_ name: String) -> String {
        var out = name.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "\\", with: "_")
        if out.hasPrefix(".") { out = "_" + out.dropFirst() }
        return out
    }
}
