public import Events
import Hashing
import Ranking

/// Turns validated events into stored rows for one app: names become dictionary ids, `user` and
/// `session` are hashed again with the app's secret, and the context becomes a context id. Events
/// whose new name would pass a dictionary cap are refused with `too_many_element_types`,
/// `too_many_commands` or `too_many_contexts`. The HTTP endpoint and `menurank import` share it.
///
/// Each row also gets its person's bucket (`PersonBucket`, sql/0020), from the raw `user` exactly as
/// the app sent it, so the database-free run, which sees only that id, puts the person in the same
/// bucket; an event without a user is a person of its own, bucketed by its id.
public struct EventPreparer: Sendable {
    public static let tooManyElementTypes = RejectionCode(rawValue: "too_many_element_types")
    public static let tooManyCommands = RejectionCode(rawValue: "too_many_commands")
    public static let tooManyContexts = RejectionCode(rawValue: "too_many_contexts")

    public let dictionaries: Dictionaries

    public init(dictionaries: Dictionaries) {
        self.dictionaries = dictionaries
    }

    /// Prepares `events` of the app `appID` whose secret is `hashSecret`.
    public func prepare(_ events: [IncomingEvent], appID: Int32, hashSecret: [UInt8]) throws(StorageError) -> PreparedEvents {
        guard let pseudonymizer = Pseudonymizer(secret: hashSecret) else {
            throw StorageError(.database, "the app's hash secret is not 16 bytes")
        }
        var elementTypes = Set<String>()
        var commands = Set<String>()
        var contexts = Set<ContextKey>()
        var keys: [ContextKey] = []
        keys.reserveCapacity(events.count)
        var last: ContextKey?
        for event in events {
            elementTypes.insert(event.elementType)
            if let command = event.command { commands.insert(command) }
            let key = Self.contextKey(of: event)
            if key != last {
                contexts.insert(key)
                last = key
            }
            keys.append(key)
        }
        let ids = try dictionaries.resolve(appID: appID, elementTypes: elementTypes, commands: commands, contexts: contexts)
        var out = PreparedEvents()
        out.rows.reserveCapacity(events.count)
        for (event, key) in zip(events, keys) {
            guard let elementTypeID = ids.elementTypes[event.elementType] else {
                out.rejections.append(EventRejection(
                    index: event.index, id: event.id.description, code: Self.tooManyElementTypes,
                    message: "the app already has \(dictionaries.limits.maxElementTypes) element types; \(event.elementType) is not one of them"))
                continue
            }
            var commandID: Int32?
            if let command = event.command {
                guard let id = ids.commands[command] else {
                    out.rejections.append(EventRejection(
                        index: event.index, id: event.id.description, code: Self.tooManyCommands,
                        message: "the app already has \(dictionaries.limits.maxCommands) commands; \(command) is not one of them"))
                    continue
                }
                commandID = id
            }
            guard let contextID = ids.contexts[key] else {
                out.rejections.append(EventRejection(
                    index: event.index, id: event.id.description, code: Self.tooManyContexts,
                    message: "the app already has \(dictionaries.limits.maxContexts) distinct contexts (app_version, platform, locale, is_test, menu_version, trigger)"))
                continue
            }
            let day = Int32(truncatingIfNeeded: event.partitionDayNumber)
            out.rows.append(EventRow(
                appID: appID, day: day, time: event.time,
                userHash: event.user.map { pseudonymizer.pseudonym($0) },
                eventIDHigh: event.id.high, eventIDLow: event.id.low,
                elementTypeID: elementTypeID, commandID: commandID, contextID: contextID,
                latencyMs: event.latencyMs.map { Int32(clamping: $0) },
                sessionHash: event.session.map { Int32(truncatingIfNeeded: pseudonymizer.pseudonym($0)) },
                position: event.position.map { Int16(clamping: $0) },
                personBucket: Int16(event.user.map { PersonBucket.of(user: $0) }
                    ?? PersonBucket.of(eventIDHigh: event.id.high, low: event.id.low))))
        }
        return out
    }

    static func contextKey(of event: IncomingEvent) -> ContextKey {
        ContextKey(appVersion: event.appVersion ?? "", platform: event.platform ?? "", locale: event.locale ?? "",
                   isTest: event.isTest, menuVersion: event.menuVersion ?? "", trigger: event.trigger ?? "")
    }
}
