import JSON
import Ranking

/// Turns generated batches into bytes: a POST /v1/events body, JSON Lines for `menurank import`, or
/// PostgreSQL COPY text rows shaped like the events table (the benchmark's ceiling). Names are
/// quoted once up front, so encoding is a run of appends.
public struct SimulationEncoder: Sendable {
    public let generator: SimulationGenerator
    private let quotedElementTypes: [[UInt8]]
    private let quotedCommands: [[[UInt8]]]
    private let commandIDs: [[Int]]
    private let quotedUsers: [[UInt8]]
    /// Per user, the person bucket ingestion stores for them (`PersonBucket.of(user:)`).
    private let userBuckets: [Int]
    private let quotedTriggers: [[UInt8]]
    /// Per element type, the quoted `menu_version` its events carry (nil: none).
    private let quotedMenuVersions: [[UInt8]?]
    /// Per element type in a rollout, the quoted `menu_version` of its new arm.
    private let quotedRolloutVersions: [[UInt8]?]
    private let contextObjects: [[UInt8]]
    private let contextMembers: [[UInt8]]

    /// Offset of the 24-byte `sent_at` timestamp in a body, patched just before each send.
    public static let sentAtOffset = 12
    public static let sentAtLength = 24

    public init(generator: SimulationGenerator) {
        self.generator = generator
        let profile = generator.profile
        func quoted(_ s: String) -> [UInt8] {
            var out: [UInt8] = []
            JSONWriter.appendQuoted(s, to: &out)
            return out
        }
        quotedElementTypes = profile.elementTypes.map { quoted($0.name) }
        quotedCommands = profile.elementTypes.map { $0.items.map { quoted($0.command) } }
        var dictionary: [String: Int] = [:]
        var ids: [[Int]] = []
        for element in profile.elementTypes {
            ids.append(element.items.map { item in
                if let id = dictionary[item.command] { return id }
                let id = dictionary.count + 1
                dictionary[item.command] = id
                return id
            })
        }
        commandIDs = ids
        quotedUsers = (0..<generator.configuration.users).map { quoted(generator.userName($0)) }
        userBuckets = (0..<generator.configuration.users).map { PersonBucket.of(user: generator.userName($0)) }
        quotedTriggers = SimulationContext.triggers.map(quoted)
        quotedMenuVersions = profile.elementTypes.indices.map { profile.menuVersion(ofElementType: $0).map(quoted) }
        quotedRolloutVersions = profile.elementTypes.map { $0.rollout.map { quoted($0.menuVersion) } }
        contextObjects = SimulationContext.all.map { c in
            Array("{\"app_version\":".utf8) + quoted(c.appVersion) + Array(",\"platform\":".utf8) + quoted(c.platform)
                + Array(",\"locale\":".utf8) + quoted(c.locale) + Array(",\"is_test\":false}".utf8)
        }
        contextMembers = SimulationContext.all.map { c in
            Array(",\"app_version\":".utf8) + quoted(c.appVersion) + Array(",\"platform\":".utf8) + quoted(c.platform)
                + Array(",\"locale\":".utf8) + quoted(c.locale)
        }
    }

    /// A complete request body. `sent_at` is written as `sentAtMillis`; `patchSentAt` rewrites it.
    public func body(_ batch: SimulationBatch, sentAtMillis: Int64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(batch.events.count * 280 + 200)
        out.append(contentsOf: "{\"sent_at\":\"".utf8)
        SimulationTimestamp.appendRFC3339(sentAtMillis, to: &out)
        out.append(contentsOf: "\",\"context\":".utf8)
        out.append(contentsOf: contextObjects[batch.context])
        out.append(contentsOf: ",\"events\":[".utf8)
        for (i, event) in batch.events.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            appendEvent(event, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    public static func patchSentAt(_ body: inout [UInt8], millis: Int64) {
        var stamp: [UInt8] = []
        SimulationTimestamp.appendRFC3339(millis, to: &stamp)
        body.replaceSubrange(sentAtOffset..<(sentAtOffset + sentAtLength), with: stamp)
    }

    /// One event per line, the batch's context folded into each event.
    public func appendJSONLines(_ batch: SimulationBatch, to out: inout [UInt8]) {
        for event in batch.events {
            appendEvent(event, to: &out)
            out.append(contentsOf: contextMembers[batch.context])
            out.append(contentsOf: "}\n".utf8)
        }
    }

    /// Rows in COPY text format with the events table's columns, in its order: app_id, day, time,
    /// user_hash, event_id, element_type_id, command_id, context_id, latency_ms, session_hash,
    /// position, person_bucket. Dictionary ids are assigned in profile order, starting at 1.
    public func appendCopyRows(_ batch: SimulationBatch, appID: Int, to out: inout [UInt8]) {
        let tab = UInt8(ascii: "\t")
        let null: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "N")]
        for event in batch.events {
            JSONWriter.appendInteger(Int64(appID), to: &out)
            out.append(tab)
            SimulationTimestamp.appendDate(ofMillis: event.timeMillis, to: &out)
            out.append(tab)
            SimulationTimestamp.appendPostgres(event.timeMillis, to: &out)
            out.append(tab)
            JSONWriter.appendInteger(userHash(event.user), to: &out)
            out.append(tab)
            event.id.append(to: &out)
            out.append(tab)
            JSONWriter.appendInteger(Int64(event.elementType + 1), to: &out)
            out.append(tab)
            if let item = event.item {
                JSONWriter.appendInteger(Int64(commandIDs[event.elementType][item]), to: &out)
            } else {
                out.append(contentsOf: null)
            }
            out.append(tab)
            JSONWriter.appendInteger(Int64(SimulationContext.contextID(context: batch.context, trigger: event.trigger)), to: &out)
            out.append(tab)
            JSONWriter.appendInteger(Int64(event.latencyMs), to: &out)
            out.append(tab)
            JSONWriter.appendInteger(Int64(Int32(truncatingIfNeeded: event.session)), to: &out)
            out.append(tab)
            if let item = event.item {
                JSONWriter.appendInteger(Int64(position(of: event, item: item)), to: &out)
            } else {
                out.append(contentsOf: null)
            }
            out.append(tab)
            JSONWriter.appendInteger(Int64(userBuckets[event.user]), to: &out)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// A stand-in for the server's keyed re-hash of a user id: 64 bits, stable per user.
    public func userHash(_ user: Int) -> Int64 {
        Int64(bitPattern: SimulationRandom.mix(generator.configuration.seed ^ 0x0BAD_5EED ^ UInt64(user)))
    }

    /// The position of the picked item as the event's person saw it (no copy of the items on the
    /// common path: the ingestion benchmark encodes every event here).
    private func position(of event: SimulationEvent, item: Int) -> Int {
        event.inRollout ? generator.profile.items(of: event)[item].position
            : generator.profile.elementTypes[event.elementType].items[item].position
    }

    /// The members of one event object, without its closing brace.
    private func appendEvent(_ event: SimulationEvent, to out: inout [UInt8]) {
        out.append(contentsOf: "{\"id\":\"".utf8)
        event.id.append(to: &out)
        out.append(contentsOf: "\",\"time\":\"".utf8)
        SimulationTimestamp.appendRFC3339(event.timeMillis, to: &out)
        out.append(contentsOf: "\",\"element_type\":".utf8)
        out.append(contentsOf: quotedElementTypes[event.elementType])
        if let item = event.item {
            out.append(contentsOf: ",\"command\":".utf8)
            out.append(contentsOf: quotedCommands[event.elementType][item])
            out.append(contentsOf: ",\"kind\":\"select\",\"position\":".utf8)
            JSONWriter.appendInteger(Int64(position(of: event, item: item)), to: &out)
        } else {
            out.append(contentsOf: ",\"kind\":\"dismiss\"".utf8)
        }
        out.append(contentsOf: ",\"latency_ms\":".utf8)
        JSONWriter.appendInteger(Int64(event.latencyMs), to: &out)
        if let version = event.inRollout ? quotedRolloutVersions[event.elementType] : quotedMenuVersions[event.elementType] {
            out.append(contentsOf: ",\"menu_version\":".utf8)
            out.append(contentsOf: version)
        }
        out.append(contentsOf: ",\"user\":".utf8)
        out.append(contentsOf: quotedUsers[event.user])
        out.append(contentsOf: ",\"session\":\"".utf8)
        out.append(contentsOf: SimulationGenerator.sessionName(event.session).utf8)
        out.append(contentsOf: "\",\"trigger\":".utf8)
        out.append(contentsOf: quotedTriggers[event.trigger])
    }
}
