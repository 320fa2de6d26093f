/// A structured logger: a label naming the component, a minimum level, metadata added to every line,
/// and the output lines go to.
///
/// A value type: `logger.with("request_id", id)` makes a copy for one request without touching the
/// original. Messages and metadata are `@autoclosure`s, so nothing is built for a line below the
/// active level. Libraries take a `logger:` parameter instead of making their own.
public struct Logger: Sendable {
    /// The component that logs (`menurank.ingest`).
    public var label: String
    /// Lines below this level are dropped before their message is built.
    public var level: Level
    /// Key-value pairs written on every line, before the metadata of the call.
    public var metadata: LogMetadata
    /// Where lines go and in which format.
    public let output: LogOutput

    public init(label: String, level: Level = .info, metadata: LogMetadata = [:],
                output: LogOutput = .standardError(format: .logfmt)) {
        self.label = label
        self.level = level
        self.metadata = metadata
        self.output = output
    }

    /// Whether a line at `level` would be written.
    public func isEnabled(_ level: Level) -> Bool { level >= self.level }

    /// Writes one line at `level` when it is enabled.
    public func log(_ level: Level, _ message: @autoclosure () -> String,
                    metadata extra: @autoclosure () -> LogMetadata = [:]) {
        guard isEnabled(level) else { return }
        let line = LogLineEncoder.encode(
            format: output.format, timestamp: output.clock.now(), level: level, label: label,
            message: message(), metadata: metadata.merging(extra()))
        output.write(line)
    }

    public func trace(_ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata = [:]) {
        log(.trace, message(), metadata: metadata())
    }

    public func debug(_ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata = [:]) {
        log(.debug, message(), metadata: metadata())
    }

    public func info(_ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata = [:]) {
        log(.info, message(), metadata: metadata())
    }

    public func notice(_ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata = [:]) {
        log(.notice, message(), metadata: metadata())
    }

    public func warning(_ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata = [:]) {
        log(.warning, message(), metadata: metadata())
    }

    public func error(_ message: @autoclosure () -> String, metadata: @autoclosure () -> LogMetadata = [:]) {
        log(.error, message(), metadata: metadata())
    }

    /// A copy that writes `key=value` on every line.
    public func with(_ key: String, _ value: LogValue) -> Logger {
        var copy = self
        copy.metadata[key] = value
        return copy
    }

    /// A copy with another label (`logger.labeled("menurank.rollup")`).
    public func labeled(_ label: String) -> Logger {
        var copy = self
        copy.label = label
        return copy
    }

    /// The metadata value for `key`, read or written in place.
    public subscript(metadataKey key: String) -> LogValue? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
