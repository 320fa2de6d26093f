/// The top-level members of a batch.
enum BatchMember {
    case sentAt, context, events

    init?(name: UnsafeBufferPointer<UInt8>) {
        if matches(name, "events") { self = .events } else if matches(name, "context") { self = .context }
        else if matches(name, "sent_at") { self = .sentAt } else { return nil }
    }
}
