import ArgumentParsing
import Foundation
import JSON
import Menus
import Reports

/// What `menurank recommend` prints or writes.
enum PipelineRecommendOutput {
    /// One app's run: JSON (the report on one line), Markdown or text (coloured when `colour`).
    static func render(_ run: PipelineRecommendation.AppRun, titles: [String: CommandInfo], format: String,
                       colour: Bool = false) -> String
    {
        let names = titles.mapValues(\.title)
        switch format {
        case "json":
            return json(run.report, written: run.writtenEntries) + "\n"
        case "markdown":
            return MarkdownReportRenderer(titles: names).render(run.report)
        default:
            var out = TextReportRenderer(colour: colour, titles: names).render(run.report)
            if !run.appFindings.isEmpty {
                out += "\n" + run.appFindings.map { "\($0)\n" }.joined()
            }
            return out
        }
    }

    /// `report.jsonText()`, with the element types' entries written on all cores: the compact text
    /// of an array is its elements' texts joined by commas. `written[i]`, when given, is entry i's
    /// text already written with `proposal_id` null (a draft's evidence); it is reused with the
    /// entry's proposal id put in.
    static func json(_ report: RecommendReport, written: [String?] = []) -> String {
        let head = RecommendReport(app: report.app, from: report.from, to: report.to, elementTypes: []).jsonText()
        guard !report.elementTypes.isEmpty, head.hasSuffix("[]}") else { return report.jsonText() }
        let indexed = Array(report.elementTypes.enumerated())
        let entries = PipelineParallel.map(indexed) { entry in
            if entry.offset < written.count, let text = written[entry.offset],
               let reused = withProposalID(text, entry.element.proposalID)
            {
                return reused
            }
            return entry.element.jsonValue.jsonText
        }
        return head.dropLast(2) + entries.joined(separator: ",") + "]}"
    }

    /// An entry's compact text written with `proposal_id` null, with `id` put in its place; nil when
    /// the member is not where the entry's member order puts it (before any array or object, after
    /// `changed`). The first `,"proposal_id":null,` of the text is that member: a string value
    /// before it (the element type) writes its quotes as `\"`, so it cannot hold the sequence.
    static func withProposalID(_ text: String, _ id: Int?) -> String? {
        let marker = Array(#","changed":"#.utf8)
        let member = Array(#","proposal_id":null,"#.utf8)
        let bytes = Array(text.utf8)
        guard let changed = firstIndex(of: marker, in: bytes, from: 0),
              let at = firstIndex(of: member, in: bytes, from: changed + marker.count),
              !bytes[changed..<at].contains(UInt8(ascii: "{")), !bytes[changed..<at].contains(UInt8(ascii: "["))
        else { return nil }
        guard let id else { return text }
        var out = Array(bytes[..<at])
        out.append(contentsOf: #","proposal_id":\#(id),"#.utf8)
        out.append(contentsOf: bytes[(at + member.count)...])
        return String(decoding: out, as: UTF8.self)
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var i = start
        while i <= bytes.count - needle.count {
            if bytes[i] == needle[0], bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// Colour on a terminal unless `NO_COLOR` is set (to anything but the empty string).
    static func colour(_ context: CommandContext) -> Bool {
        context.console.isOutputTerminal && (context.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// `--out DIR`: one file per app and element type, `<app>/<element type>.<json|md|txt>`, each
    /// holding that element type alone (JSON: the report with one entry).
    static func writeFiles(_ runs: [PipelineRecommendation.AppRun], titles: [[String: CommandInfo]], format: String,
                           directory: String, console: Console) throws
    {
        let ext = format == "json" ? "json" : format == "markdown" ? "md" : "txt"
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
