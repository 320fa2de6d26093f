import Foundation
import JSON
import Simulation
import Testing
import TestSupport

/// The generator as `menurank simulate --out` writes it (same options, run in process): determinism
/// and the shape of the distributions (Zipf skew, dismissal share, time spread, UUIDv7 ids, latency
/// by position).
@Suite("Simulation: generated telemetry")
struct SimulationGeneratorTests {
    static let now = "2026-11-29T10:00:00Z"
    static let nowMillis: Int64 = 1_795_946_400_000

    static func generate(_ arguments: [String]) throws -> String {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("simulate-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: file) }
        let clock = arguments.contains("--now") ? [] : ["--now", now]
        let options = try SimulationOptions(clock + arguments)
        try SimulationFileWriter.write(options.encoder, to: file.path, copyRowsForApp: options.copyRowsForApp)
        return try String(contentsOf: file, encoding: .utf8)
    }

    static func events(_ arguments: [String]) throws -> [[String: Any]] {
        try generate(arguments).split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Foundation.Data(line.utf8)) as? [String: Any])
        }
    }

    /// Milliseconds since 1970 of `2026-11-29T09:59:58.120Z`.
    static func millis(_ text: String) throws -> Int64 {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try #require(formatter.date(from: text), "not RFC 3339: \(text)")
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// One shared sample, big enough for the distribution checks.
    nonisolated(unsafe) static let sample: [[String: Any]] = (try? events(["--events", "20000", "--seed", "42", "--users", "500"])) ?? []

    @Test func sameSeedSameBytesOtherSeedOtherEvents() throws {
        let arguments = ["--events", "3000", "--batch-size", "250", "--seed", "7"]
        let first = try Self.generate(arguments)
        let second = try Self.generate(arguments)
        #expect(first == second)
        #expect(first.split(separator: "\n").count == 3000)
        let other = try Self.generate(["--events", "3000", "--batch-size", "250", "--seed", "8"])
        #expect(other != first)
        // Whatever the batch size, the count is exact.
        #expect(try Self.generate(["--events", "1234", "--batch-size", "100"]).split(separator: "\n").count == 1234)
    }

    @Test func anotherClockOrManifestMakesNewIdsButTheSamePopularity() throws {
        func firstIDs(_ arguments: [String]) throws -> Set<String> {
            Set(try Self.events(["--events", "500"] + arguments).compactMap { $0["id"] as? String })
        }
        let base = try firstIDs([])
        #expect(base.count == 500)
        #expect(try firstIDs([]) == base)
        #expect(try firstIDs(["--now", "2026-11-29T10:00:01Z"]).isDisjoint(with: base))
        let manifest = SimulationOptions.repositoryRoot.appendingPathComponent("examples/mail.json").path
        #expect(try firstIDs(["--manifest", manifest]).isDisjoint(with: base))
        // Popularity follows the seed only: the most used command stays the same at another clock.
        func topCommand(_ arguments: [String]) throws -> String? {
            let events = try Self.events(["--events", "4000"] + arguments)
            let counts = Dictionary(grouping: events.filter { $0["element_type"] as? String == "files.file" }) {
                $0["command"] as? String ?? ""
            }
            return counts.max { $0.value.count < $1.value.count }?.key
        }
        #expect(try topCommand([]) == topCommand(["--now", "2026-11-20T10:00:00Z"]))
    }

    @Test func everyEventHasTheRequiredFields() throws {
        let events = Self.sample
        #expect(events.count == 20000)
        for event in events.prefix(2000) {
            #expect(event["id"] is String && event["time"] is String && event["element_type"] is String)
            let kind = event["kind"] as? String
            #expect(kind == "select" || kind == "dismiss")
            if kind == "select" {
                #expect(event["command"] is String && event["position"] is Int)
            } else {
                #expect(event["command"] == nil && event["position"] == nil)
            }
            #expect((event["latency_ms"] as? Int).map { $0 >= 120 && $0 <= 30000 } == true)
        }
        let elementTypes = Set(events.compactMap { $0["element_type"] as? String })
        #expect(elementTypes.count >= 4)
        let users = Set(events.compactMap { $0["user"] as? String })
        #expect(users.count > 200 && users.count <= 500)
        let sessions = Set(events.compactMap { $0["session"] as? String })
        #expect(sessions.count > 1000 && sessions.count < 10000)
    }

    @Test func commandPopularityIsZipfLikeWithinEachElementType() throws {
        let selections = Self.sample.filter { $0["kind"] as? String == "select" }
        let byElement = Dictionary(grouping: selections) { $0["element_type"] as? String ?? "" }
        let busiest = try #require(byElement.max { $0.value.count < $1.value.count })
        let counts = Dictionary(grouping: busiest.value) { $0["command"] as? String ?? "" }
            .map(\.value.count).sorted(by: >)
        let total = Double(counts.reduce(0, +))
        #expect(counts.count >= 8)
        // With exponent 1.1 over ~10 commands the top command takes about a third.
        #expect(Double(counts[0]) / total > 0.25 && Double(counts[0]) / total < 0.5)
        #expect(counts[0] > counts[1] && counts[1] > counts[3])
        let topToFourth = Double(counts[0]) / Double(counts[3])
        #expect(topToFourth > 3 && topToFourth < 7, "rank 1 / rank 4 = \(topToFourth), Zipf 1.1 gives 4.6")
        #expect(Double(counts.last!) / total < 0.04, "the tail is thin")
    }

    @Test func aFewPercentAreDismissals() {
        let dismissals = Self.sample.filter { $0["kind"] as? String == "dismiss" }.count
        let share = Double(dismissals) / Double(max(Self.sample.count, 1))
        #expect(share > 0.01 && share < 0.06, "dismissal share \(share)")
    }

    @Test func timesSpreadOverThePastDaysWithADailyPattern() throws {
        var days: Set<Int64> = []
        var afternoon = 0
        var night = 0
        for event in Self.sample {
            let time = try Self.millis(try #require(event["time"] as? String))
            #expect(time <= Self.nowMillis)
            #expect(time > Self.nowMillis - 28 * 86_400_000 - 86_400_000)
            days.insert(time / 86_400_000)
            let hour = time % 86_400_000 / 3_600_000
            if (12...17).contains(hour) { afternoon += 1 }
            if (0...5).contains(hour) { night += 1 }
        }
        #expect(days.count >= 27)
        #expect(afternoon > 3 * night, "afternoon \(afternoon), night \(night)")
        let shortRun = try Self.events(["--events", "2000", "--days", "3"])
        for event in shortRun {
            let time = try Self.millis(try #require(event["time"] as? String))
            #expect(time > Self.nowMillis - 3 * 86_400_000)
        }
    }

    @Test func idsAreTimeOrderedUUIDv7() throws {
        var pairs: [(id: String, time: Int64)] = []
        for event in Self.sample {
            let id = try #require(event["id"] as? String)
            let characters = Array(id)
            #expect(characters.count == 36 && characters[8] == "-" && characters[13] == "-")
            #expect(characters[14] == "7", "version nibble of \(id)")
            #expect("89ab".contains(characters[19]), "variant of \(id)")
            let time = try Self.millis(try #require(event["time"] as? String))
            let prefix = String(characters[0..<8]) + String(characters[9..<13])
            #expect(Int64(prefix, radix: 16) == time, "the id's timestamp is the event time")
            pairs.append((id, time))
        }
        #expect(Set(pairs.map(\.id)).count == pairs.count)
        let byID = pairs.sorted { $0.id < $1.id }
        for (a, b) in zip(byID, byID.dropFirst()) { #expect(a.time <= b.time) }
    }

    /// `simulate --raw --live`: each batch is the generated one, restamped as sent now with new
    /// UUIDv7 ids of that millisecond, distinct within and across batches and clocks.
    @Test func liveBatchesAreTheSameEventsStampedNow() throws {
        let generator = try SimulationOptions(["--now", Self.now, "--events", "2000", "--batch-size", "500"]).encoder.generator
        let sent: Int64 = Self.nowMillis + 3_600_000
        var ids = Set<SimulationUUID>()
        for index in 0..<4 {
            let generated = generator.batch(index)
            let live = generator.liveBatch(index, nowMillis: sent + Int64(index))
            #expect(live.events.count == generated.events.count)
            #expect(live.context == generated.context)
            for (a, b) in zip(generated.events, live.events) {
                #expect(b.timeMillis == sent + Int64(index))
                #expect(Int64(bitPattern: b.id.high >> 16) == sent + Int64(index), "the id's timestamp is the send time")
                #expect(b.id.high & 0xF000 == 0x7000 && b.id.low >> 62 == 2, "UUIDv7 version and variant")
                #expect(a.id != b.id)
                #expect(a.elementType == b.elementType && a.item == b.item && a.user == b.user
                    && a.latencyMs == b.latencyMs && a.session == b.session && a.trigger == b.trigger)
                ids.insert(b.id)
            }
        }
        #expect(ids.count == 2000)
        // The same batch sent at another moment is new events, not a replay.
        let again = generator.liveBatch(0, nowMillis: sent + 1)
        #expect(Set(again.events.map(\.id)).isDisjoint(with: ids))
    }

    @Test func latencyGrowsWithPosition() {
        var sums: [Int: (total: Int, count: Int)] = [:]
        for event in Self.sample {
            guard let position = event["position"] as? Int, let latency = event["latency_ms"] as? Int else { continue }
            let bucket = min(position, 6)
            sums[bucket, default: (0, 0)].total += latency
            sums[bucket, default: (0, 0)].count += 1
        }
        let mean = { (p: Int) -> Double in
            guard let s = sums[p], s.count > 0 else { return 0 }
            return Double(s.total) / Double(s.count)
        }
        #expect(mean(0) > 250 && mean(0) < 600)
        #expect(mean(2) > mean(0) + 200)
        #expect(mean(6) > mean(2) + 400)
    }

    @Test func manifestGivesElementTypesCommandsAndPositions() throws {
        let manifestURL = SimulationOptions.repositoryRoot.appendingPathComponent("examples/mail.json")
        let events = try Self.events(["--manifest", manifestURL.path, "--events", "5000"])
        let manifest = try #require(JSONSerialization.jsonObject(with: Foundation.Data(contentsOf: manifestURL)) as? [String: Any])
        let menus = try #require(manifest["menus"] as? [String: Any])
        #expect(Set(events.compactMap { $0["element_type"] as? String }) == Set(menus.keys))
        for event in events where event["kind"] as? String == "select" {
            let element = try #require(event["element_type"] as? String)
            let command = try #require(event["command"] as? String)
            let menu = String(decoding: try JSONSerialization.data(withJSONObject: menus[element] ?? [:]), as: UTF8.self)
            #expect(menu.contains("\"\(command)\""), "\(command) is in the \(element) menu")
            #expect(event["menu_version"] as? String == manifest["version"] as? String)
        }
        // mail.message shows rows reply 0 ... mark_unread 6, the Share submenu 7 (copy_link 8,
        // print 9 inside it), open_message 8, delete 9.
        func position(_ command: String) -> Int? {
            events.first { $0["element_type"] as? String == "mail.message" && $0["command"] as? String == command }?["position"] as? Int
        }
        #expect(position("reply") == 0)
        #expect(position("mark_unread") == 6)
        #expect(position("copy_link") == 8)
        #expect(position("delete") == 9)
    }

    @Test func copyRowsHaveTheEventsTableColumns() throws {
        let text = try Self.generate(["--events", "1000", "--out-format", "copy", "--app-id", "9"])
        let rows = text.split(separator: "\n")
        #expect(rows.count == 1000)
        for row in rows {
            let columns = row.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(columns.count == 12)
            #expect(columns[0] == "9")
            #expect(columns[2].hasPrefix(columns[1] + " ") && columns[2].hasSuffix("+00"))
            #expect(Int64(columns[3]) != nil && Int(columns[5]) != nil && Int(columns[7]) != nil)
            #expect(columns[6] == "\\N" ? columns[10] == "\\N" : Int(columns[6]) != nil && Int(columns[10]) != nil)
            #expect(Int(columns[11]).map { (0..<64).contains($0) } == true)
        }
    }
}
