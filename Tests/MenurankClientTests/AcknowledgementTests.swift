import Events
@testable import MenurankClient
import Testing

/// The daemon's answers, as its own encoder writes them, read by the client: the counts without
/// `JSONSerialization` when nothing was rejected, the full parse otherwise, the same figures both ways.
@Suite("MenurankClient: acknowledgements")
struct AcknowledgementTests {
    static let rejection = EventRejection(index: 2, id: "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293", code: .invalidElementType,
                                          message: "element_type must be 1-128 printable ASCII characters without spaces")

    @Test(arguments: [(0, 0), (1, 0), (498, 2), (500, 0), (0, 500), (123_456_789, 987_654_321)])
    func countsWithoutRejectionsAreReadWithoutTheFullParse(accepted: Int, duplicates: Int) {
        let body = IngestResponse(accepted: accepted, duplicates: duplicates, rejected: [],
                                  serverTime: 1_795_946_398_120_000).jsonBytes()
        let fast = Acknowledgement.withoutRejections(body)
        #expect(fast?.accepted == accepted && fast?.duplicates == duplicates)
        let parsed = Acknowledgement(parsing: body, events: 500)
        #expect(parsed.accepted == accepted && parsed.duplicates == duplicates)
        #expect(parsed.rejections.isEmpty && parsed.rejectionCodes.isEmpty)
    }

    @Test func rejectionsTakeTheFullParse() {
        let body = IngestResponse(accepted: 497, duplicates: 2, rejected: [Self.rejection],
                                  serverTime: 1_795_946_398_120_000).jsonBytes()
        #expect(Acknowledgement.withoutRejections(body) == nil)
        let parsed = Acknowledgement(parsing: body, events: 500)
        #expect(parsed.accepted == 497 && parsed.duplicates == 2)
        #expect(parsed.rejectionCodes == ["invalid_element_type"])
        #expect(parsed.rejections.count == 1)
        #expect(parsed.rejections.first?.0 == 2 && parsed.rejections.first?.1 == "invalid_element_type")
    }

    /// Any other shape (spacing, order, a number too long to be a count) goes to the full parse.
    @Test(arguments: [
        #"{ "accepted":3,"duplicates":0,"rejected":[],"server_time":"x"}"#,
        #"{"duplicates":0,"accepted":3,"rejected":[],"server_time":"x"}"#,
        #"{"accepted":3,"duplicates":0,"rejected":[ ],"server_time":"x"}"#,
        #"{"accepted":,"duplicates":0,"rejected":[],"server_time":"x"}"#,
        #"{"accepted":3,"duplicates":0,"rejected":[]}"#,
        #"{"accepted":1234567890123456789012,"duplicates":0,"rejected":[],"server_time":"x"}"#,
        "",
    ])
    func otherShapesAreLeftToTheFullParse(body: String) {
        #expect(Acknowledgement.withoutRejections(Array(body.utf8)) == nil)
    }
}
