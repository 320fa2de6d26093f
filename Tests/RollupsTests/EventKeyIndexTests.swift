@testable import Rollups
import Testing

/// `EventKeyIndex` numbers every distinct key once, in the order first seen, whatever the ids
/// (negative, the extremes, a command whose bits look like a dismissal's) and across growth.
@Suite struct EventKeyIndexTests {
    @Test func everyDistinctKeyGetsItsOwnNumberInOrder() {
        var keys: [(Int32, Int32?, Int32)] = []
        for element in [Int32.min, -1, 0, 1, 7, Int32.max] {
            for command in [nil, Int32.min, -1, 0, 1, Int32.max] as [Int32?] {
                for slot in [0, 1, 3, Int32.max] as [Int32] { keys.append((element, command, slot)) }
            }
        }
        for index in 0..<5_000 { keys.append((Int32(index % 97), index % 11 == 0 ? nil : Int32(index / 97), Int32(index % 3))) }
        var index = EventKeyIndex()
        var expected: [Int32] = []
        var seen: [String: Int32] = [:]
        var numbers: [Int32] = []
        for (element, command, slot) in keys + keys.reversed() {
            let key = EventKeyIndex.pack(elementTypeID: element, commandID: command, slot: slot)
            let name = "\(element) \(command.map(String.init) ?? "dismissal") \(slot)"
            if let known = seen[name] {
                expected.append(known)
            } else {
                seen[name] = Int32(seen.count)
                expected.append(Int32(seen.count - 1))
            }
            numbers.append(index.number(key) ?? index.add(key))
        }
        #expect(numbers == expected)
        #expect(index.count == seen.count)
    }
}
