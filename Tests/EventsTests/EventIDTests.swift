import Events
import Foundation
import Testing

@Suite("EventID")
struct EventIDTests {
    @Test func parsesEitherCase() throws {
        let lower = try #require(EventID("0193a4c2-6f1e-7c3a-9d2b-4e5f60718293"))
        let upper = try #require(EventID("0193A4C2-6F1E-7C3A-9D2B-4E5F60718293"))
        #expect(lower == upper)
        #expect(lower.high == 0x0193_a4c2_6f1e_7c3a)
        #expect(lower.low == 0x9d2b_4e5f_6071_8293)
        #expect(lower.description == "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293")
        #expect(lower.bytes == [0x01, 0x93, 0xa4, 0xc2, 0x6f, 0x1e, 0x7c, 0x3a, 0x9d, 0x2b, 0x4e, 0x5f, 0x60, 0x71, 0x82, 0x93])
        #expect(EventID(bytes: lower.bytes) == lower)
    }

    @Test func matchesFoundationUUID() throws {
        for _ in 0..<20 {
            let uuid = UUID()
            let id = try #require(EventID(uuid.uuidString))
            #expect(id.uuid == uuid)
            #expect(EventID(uuid: uuid) == id)
            #expect(id.description == uuid.uuidString.lowercased())
        }
    }

    @Test("refuses", arguments: [
        "", "0193a4c2-6f1e-7c3a-9d2b-4e5f6071829", "0193a4c2-6f1e-7c3a-9d2b-4e5f607182934",
        "0193a4c26f1e7c3a9d2b4e5f60718293", "0193a4c2-6f1e-7c3a-9d2b_4e5f60718293", "0193a4c2-6f1e-7c3a-9d2b-4e5f6071829g",
        "g193a4c2-6f1e-7c3a-9d2b-4e5f60718293", "{0193a4c2-6f1e-7c3a-9d2b-4e5f60718293}", "0193a4c2-6f1e-7c3a-9d2b-4e5f6071829 ",
        "0193a4c2--6f1e7c3a-9d2b-4e5f60718293", "0193a4c2-6f1e-7c3a-9d2b-4e5f6071829é",
        "urn:uuid:0193a4c2-6f1e-7c3a-9d2b-4e5f", "0193a4c2-6f1e-7c3a-9d2b-4e5f6071829:", "0193a4c2-6f1e-7c3a-9d2b-4e5f6071829/",
    ])
    func refuses(_ text: String) {
        #expect(EventID(text) == nil)
    }

    @Test func ordersByBytes() throws {
        let a = try #require(EventID("00000000-0000-0000-0000-000000000001"))
        let b = try #require(EventID("00000000-0000-0000-0000-000000000002"))
        let c = try #require(EventID("00000000-0000-0001-0000-000000000000"))
        #expect(a < b && b < c)
    }
}
