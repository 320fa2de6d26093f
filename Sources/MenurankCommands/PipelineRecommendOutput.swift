import ArgumentParsing
import Foundation
import JSON
import Menus
import Nightly
import Reports

/// What `menurank recommend` prints or writes.
enum PipelineRecommendOutput {
    /// One app's run: JSON (the report on one line), Markdown or text (coloured when `colour`).
    static func render(_ run: PipelineRecommendation.AppRun, titles: [String: CommandInfo], format: DocumentFormat,
                       colour: Bool = false) -> String
    {
        let names = titles.mapValues(\.title)
        switch format {
        case .json:
            return json(run.report, written: run.writtenEntries) + "\n"
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

    /// `report.jsonText()`, with the element types' entries written on all cores: the compact text
    /// of an array is its elements' texts joined by commas. `written[i]`, when given, is entry i's
    /// compact text, already written with its proposal id (a proposal filed by this run), and is
    /// used as it is. Written as UTF-8 bytes and made a `String` once.
    static func json(_ report: RecommendReport, written: [String?] = []) -> String {
        let head = RecommendReport(app: report.app, from: report.from, to: report.to, elementTypes: []).jsonValue.jsonBytes
        guard !report.elementTypes.isEmpty, head.suffix(3).elementsEqual("[]}".utf8) else { return report.jsonText() }
        let indexed = Array(report.elementTypes.enumerated())
        let entries = ParallelMap.map(indexed) { entry -> [UInt8] in
            if entry.offset < written.count, let text = written[entry.offset] { return Array(text.utf8) }
            return entry.element.jsonValue.jsonBytes
        }
        var out: [UInt8] = []
        out.reserveCapacity(head.count + entries.reduce(0) { $0 + $1.count + 1 })
        out.append(contentsOf: head.dropLast(2))
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: entry)
        }
        out.append(contentsOf: "]}".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// Colour on a terminal unless `NO_COLOR` is set (to anything but the empty string).
    static func colour(_ context: CommandContext) -> Bool {
        context.console.isOutputTerminal && (context.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// `--out DIR`: one file per app and element type, `<app>/<element type>.<json|md|txt>`, each
    /// holding that element type alone (JSON: the report with one entry).
    static func writeFiles(_ runs: [PipelineRecommendation.AppRun], titles: [[String: CommandInfo]], format: DocumentFormat,
                           directory: String, console: Console) throws
    {
        let ext = switch format {
        case .json: "json"
        case .markdown: "md"
        case .text: "txt"
        }
        for (run, titles) in zip(runs, titles) {
            let folder = URL(fileURLWithPath: directory).appendingPathComponent(safe(run.report.app))
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw CLIError.failure("cannot create \(folder.path): \(error.localizedDescription)")
            }
            for (index, document) in run.report.elementTypes.enumerated() {
                let written = index < run.writtenEntries.count ? run.writtenEntries[index] : nil
                var single = run
                single.report.elementTypes = [document]
                single.writtenEntries = [written]
                single.appFindings = []
                let file = folder.appendingPathComponent(safe(document.elementType) + "." + ext)
                do {
                    try render(single, titles: titles, format: format).write(to: file, atomically: true, encoding: .utf8)
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
