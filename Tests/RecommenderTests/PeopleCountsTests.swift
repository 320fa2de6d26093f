import Foundation
import Testing
@testable import Ranking

/// The person-bucket split (`PeopleCounts`, `PersonBucket`): its storage bytes, its sums, and the
/// bucket function both modes share.
struct PeopleCountsTests {
    @Test func theStorageBytesReadBackAndHoldOnlyBucketsWithUse() throws {
        var split = PeopleCounts.zero
        split.selections[0] = 3
        split.userDays[0] = 2
        split.selections[63] = 300
        split.userDays[63] = 129
        let bytes = split.encoded
        // bucket 0: 3, 2 (one byte each); bucket 63: 300 (two bytes), 129 (two bytes).
        #expect(bytes == [0, 3, 2, 63, 0xac, 0x02, 0x81, 0x01])
        #expect(PeopleCounts(encoded: bytes) == split)
        #expect(PeopleCounts(encoded: [UInt8]()) == .unknown)
        #expect(PeopleCounts.unknown.encoded.isEmpty)
    }

    @Test func bytesThatAreNotASplitAreRefused() {
        #expect(PeopleCounts(encoded: [64, 1, 1]) == nil)           // bucket out of range
        #expect(PeopleCounts(encoded: [5, 1, 1, 5, 1, 1]) == nil)   // bucket repeated
        #expect(PeopleCounts(encoded: [5, 1]) == nil)               // user-days missing
        #expect(PeopleCounts(encoded: [5, 0x80]) == nil)            // varint cut short
    }

    @Test func aWindowWithADayOfUnknownSplitIsUnknown() {
        var sum = PeopleCounts.zero
        var day = PeopleCounts.zero
        day.selections[7] = 2
        day.userDays[7] = 1
        sum.add(day, weight: 0.5)
        #expect(sum.selections[7] == 1 && sum.userDays[7] == 0.5)
        sum.add(.unknown)
        #expect(!sum.isKnown)
    }

    @Test func bucketsSpreadPeopleEvenly() {
        var counts = [Int](repeating: 0, count: PersonBucket.count)
        for person in 0..<64_000 { counts[PersonBucket.of(user: "user-\(person)")] += 1 }
        // 1,000 expected per bucket; a chi-square over 63 degrees of freedom far beyond 120 would
        // mean the hash clumps people.
        let chi = counts.reduce(0.0) { $0 + pow(Double($1) - 1000, 2) / 1000 }
        #expect(chi < 120, "chi-square \(chi)")
        #expect(PersonBucket.of(user: "5d41402abc4b2a76") == PersonBucket.of(user: "5d41402abc4b2a76"))
        #expect((0..<PersonBucket.count).contains(PersonBucket.of(eventIDHigh: 0x0193_a4c2_6f1e_7c3a, low: 0x9d2b_4e5f_6071_8293)))
    }
}
