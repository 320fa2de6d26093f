@testable import Rollups
import Testing

/// `EventKeyIndex` gives back each distinct key's place, whatever the ids (negative, the extremes,
/// a command whose bits look like a dismissal's), and across growth.
@Suite struct EventKeyIndexTests {
    @Test func everyDistinctKeyKeepsItsOwnPlace() {
        var keys: [(Int32, Int32?, Int32)] = []
        for element in [Int32.min, -1, 0, 1, 7, Int32.max] {
            for command in [nil, Int32.min, -1, 0, 1, Int32.max] as [Int32?] {
                for slot in [0, 1, 3, Int32.max] as [Int32] { keys.append((element, command, slot)) }
            }
        }
        for index in 0..<5_000 { keys.append((Int32(index % 97), index % 11 == 0 ? nil : Int32(index / 97), Int32(index % 3))) }
        var index = EventKeyIndex()
        var seen: [String: EventKeyIndex.Place] = [:]
        for (element, command, slot) in keys + keys.reversed() {
            let key = EventKeyIndex.pack(elementTypeID: element, commandID: command, slot: slot)
            let name = "\(element) \(command.map(String.init) ?? "dismissal") \(slot)"
            if let known = seen[name] {
                #expect(index.place(key) == known, "\(name)")
            } else {
                #expect(index.place(key) == nil, "\(name)")
                let place = EventKeyIndex.Place(group: Int32(seen.count), outcome: Int32(seen.count % 13))
                seen[name] = place
                index.add(key, place: place)
            }
        }
        #expect(index.count == seen.count)
    }
}

extension EventKeyIndexTests {
    /// Room made beforehand (and made again, smaller or larger) keeps every key's place.
    @Test func reservingKeepsEveryPlace() {
        var index = EventKeyIndex()
        for element in 0..<300 {
            if element == 100 { index.reserve(10) }
            if element == 200 { index.reserve(5_000) }
            index.add(EventKeyIndex.pack(elementTypeID: Int32(element), commandID: nil, slot: 0),
                      place: EventKeyIndex.Place(group: Int32(element), outcome: 0))
        }
        for element in 0..<300 {
            #expect(index.place(EventKeyIndex.pack(elementTypeID: Int32(element), commandID: nil, slot: 0))?.group == Int32(element))
        }
        #expect(index.count == 300)
    }
}
