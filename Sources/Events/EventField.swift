/// The members of an event object that menurank reads; any other member is skipped.
enum EventField: UInt8, CaseIterable {
    case id, time, elementType, command, kind, position, latencyMs, menuVersion, user, session, trigger
    case appVersion, platform, locale, isTest

    /// Matches a member name given as UTF-8 bytes, without allocating.
    @inline(__always)
    init?(name k: UnsafeBufferPointer<UInt8>) {
        switch k.count {
        case 2:
            guard matches(k, "id") else { return nil }
            self = .id
        case 4:
            if matches(k, "time") { self = .time } else if matches(k, "kind") { self = .kind }
            else if matches(k, "user") { self = .user } else { return nil }
        case 6:
            guard matches(k, "locale") else { return nil }
            self = .locale
        case 7:
            if matches(k, "command") { self = .command } else if matches(k, "session") { self = .session }
            else if matches(k, "trigger") { self = .trigger } else if matches(k, "is_test") { self = .isTest }
            else { return nil }
        case 8:
            if matches(k, "position") { self = .position } else if matches(k, "platform") { self = .platform }
            else { return nil }
        case 10:
            guard matches(k, "latency_ms") else { return nil }
            self = .latencyMs
        case 11:
            guard matches(k, "app_version") else { return nil }
            self = .appVersion
        case 12:
            if matches(k, "element_type") { self = .elementType } else if matches(k, "menu_version") { self = .menuVersion }
            else { return nil }
        default:
            return nil
        }
    }

    var name: String {
        switch self {
        case .id: return "id"
        case .time: return "time"
        case .elementType: return "element_type"
        case .command: return "command"
        case .kind: return "kind"
        case .position: return "position"
        case .latencyMs: return "latency_ms"
        case .menuVersion: return "menu_version"
        case .user: return "user"
        case .session: return "session"
        case .trigger: return "trigger"
        case .appVersion: return "app_version"
        case .platform: return "platform"
        case .locale: return "locale"
        case .isTest: return "is_test"
        }
    }

    @inline(__always) var bit: UInt32 { 1 << UInt32(rawValue) }
}

/// True when `bytes` equal `word` (same length checked by the caller's switch, rechecked here).
@inline(__always)
func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
    let n = word.utf8CodeUnitCount
    guard bytes.count == n else { return false }
    let w = word.utf8Start
    for i in 0..<n where bytes[i] != w[i] { return false }
    return true
}
