@testable import Rollups
import Testing

/// `EventRecords` keeps what a record holds (positions and latency buckets at their extremes,
/// absent ones, person buckets) and its radix sort orders the records as a stable comparison sort
/// by key does, whatever bytes of the keys vary (none, one, all of them), the person's bucket
/// being no part of the key.
@Suite struct EventRecordsTests {
    /// A small deterministic generator (SplitMix64).
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func pick<T>(_ values: [T]) -> T { values[Int(next() % UInt64(values.count))] }
    }

    @Test func recordsKeepPositionsAndBuckets() {
        var records = EventRecords()
        let positions: [Int16?] = [nil, 0, 1, -1, Int16.min, Int16.max, 1500]
        let buckets: [Int?] = [nil, 0, 1, 568, EventRecords.maximumBucket]
        let slot = EventRecords.slotLimit - 1
        for position in positions {
            for (index, bucket) in buckets.enumerated() {
                records.append(key: EventKeyIndex.pack(elementTypeID: -7, commandID: Int32.max, slot: slot), person: -1,
                               personBucket: [0, 63, 1, 32, 62][index], position: position, bucket: bucket)
            }
        }
        var at = 0
        for position in positions {
            for (index, bucket) in buckets.enumerated() {
                let record = records.records[at]
                #expect(EventRecords.position(record) == position)
                #expect(EventRecords.bucket(record) == bucket)
                #expect(EventRecords.personBucket(record) == [0, 63, 1, 32, 62][index])
                #expect(EventRecords.keyWord(record) == EventKeyIndex.pack(elementTypeID: -7, commandID: nil, slot: slot).high)
                #expect(record.command & EventKeyIndex.commandMask == UInt64(UInt32(bitPattern: Int32.max)))
                #expect(record.person == -1)
                at += 1
            }
        }
    }

    /// Keys drawn from small and extreme ids (negative ones, the dismissal's bit, slots far
    /// apart), sorted in one go and after more were appended to sorted ones.
    @Test(arguments: [0, 1, 2, 3]) func radixSortIsAStableSortByKey(shape: Int) {
        var generator = Generator(state: UInt64(shape) &* 7_919 &+ 1)
        let elements: [Int32] = switch shape {
        case 0: [5]
        case 1: [Int32.min, -1, 0, 1, 300, Int32.max]
        case 2: (0..<1_000).map { Int32($0) }
        default: (0..<40).map { Int32($0) * 104_729 - 2_000_000 }
        }
        let commands: [Int32?] = shape == 0 ? [3] : [nil, Int32.min, -1, 0, 1, 2, 11, Int32.max]
        let slots: [Int32] = shape == 0 ? [0] : [0, 1, 2, 255, 256, 70_000, EventRecords.slotLimit - 1]
        var records = EventRecords()
        var expected: [EventRecords.Record] = []
        for round in 0..<2 {
            for index in 0..<(shape == 2 ? 30_000 : 3_000) {
                let key = EventKeyIndex.pack(elementTypeID: generator.pick(elements), commandID: generator.pick(commands),
                                             slot: generator.pick(slots))
                let person = Int64(round * 1_000_000 + index)   // the order of appending, to check stability
                records.append(key: key, person: person, personBucket: Int(generator.next() % 64),
                               position: Int16(truncatingIfNeeded: index % 9 - 2), bucket: index % 5 == 0 ? nil : index % 569)
            }
            records.sortByKey()
            expected = records.records
            expected.sort { a, b in
                (EventRecords.keyWord(a), a.command & EventKeyIndex.commandMask, a.person)
                    < (EventRecords.keyWord(b), b.command & EventKeyIndex.commandMask, b.person)
            }
            #expect(records.records.map(\.person) == expected.map(\.person), "round \(round)")
            #expect(records.records.map(\.command) == expected.map(\.command), "round \(round)")
            #expect(records.records.map(\.key) == expected.map(\.key), "round \(round)")
        }
        records.removeAll()
        #expect(records.isEmpty)
        records.sortByKey()
        #expect(records.isEmpty)
    }
}
