import Hashing

/// The `Menurank-Signature` header of a webhook delivery: `t=<unix seconds>,v1=<hex>`, where the
/// hex is HMAC-SHA256 under the URL's secret of the timestamp, a dot and the body's exact bytes.
///
/// The timestamp is signed with the body so that a receiver can refuse an old delivery replayed
/// by someone who recorded it (docs/ranking-and-recommendation.md shows a check in Python); the
/// body is signed byte for byte, as sent, so the receiver must check it before parsing it.
public struct WebhookSignature: Sendable, Equatable {
    public static let headerName = "Menurank-Signature"

    public let timestamp: Int64
    public let code: [UInt8]

    public init(body: [UInt8], secret: [UInt8], timestamp: Int64) {
        self.timestamp = timestamp
        code = HMACSHA256.authenticationCode(for: Array("\(timestamp).".utf8) + body, key: secret)
    }

    public var headerValue: String { "t=\(timestamp),v1=\(Hex.encode(code))" }
}
