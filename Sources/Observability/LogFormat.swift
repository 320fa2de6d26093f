/// How log lines are written.
public enum LogFormat: String, Sendable, CaseIterable {
    /// `ts=2026-11-30T10:00:00.123Z level=info msg="request" logger=menurank status=200`
    case logfmt
    /// `{"ts":"2026-11-30T10:00:00.123Z","level":"info","msg":"request","logger":"menurank","status":200}`
    case json
}
