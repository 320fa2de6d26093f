public import Events

/// Events ready for the writer, and the ones refused while preparing them (dictionary caps).
public struct PreparedEvents: Sendable {
    public var rows: [EventRow]
    /// Refused events, in input order, with the `index` of the `IncomingEvent`.
    public var rejections: [EventRejection]

    public init(rows: [EventRow] = [], rejections: [EventRejection] = []) {
        self.rows = rows
        self.rejections = rejections
    }
}
