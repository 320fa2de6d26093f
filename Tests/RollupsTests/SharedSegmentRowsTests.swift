import Rollups
import Testing

/// `DayRows.segmentSharingDefaultRows`: the segment whose rows storage may leave to the default
/// rows (sql/0024) is one whose command and element rows are the default rows in every figure,
/// never one that differs in any of them.
@Suite struct SharedSegmentRowsTests {
    static let segments = [DayLayout.Segment(segmentID: 10, isTest: false), .init(segmentID: 11, isTest: false),
                           .init(segmentID: 12, isTest: true)]
    static let layout = DayLayout(segments: segments,
                                  slots: [.init(segment: 0, menuVersion: ""), .init(segment: 1, menuVersion: ""),
                                          .init(segment: 2, menuVersion: "")])

    static func event(_ elementType: Int32, _ command: Int32?, person: Int64, slot: Int32) -> DayEvent {
        DayEvent(elementTypeID: elementType, commandID: command, person: person, slot: slot, personBucket: Int(person % 64))
    }

    /// One non-test segment and no test events: that segment.
    @Test func theOnlySegment() {
        let rows = DayTally.count([Self.event(1, 5, person: 1, slot: 0), Self.event(1, 5, person: 2, slot: 0),
                                   Self.event(1, nil, person: 3, slot: 0), Self.event(2, 7, person: 1, slot: 0)],
                                  layout: Self.layout)
        #expect(rows.segmentSharingDefaultRows == 10)
    }

    /// Test events in a segment of their own leave the one non-test segment's rows equal to the
    /// default rows; a second non-test segment does not.
    @Test func testEventsAsideButNotASecondSegment() {
        var events = [Self.event(1, 5, person: 1, slot: 0), Self.event(1, 6, person: 2, slot: 0),
                      Self.event(1, 5, person: 9, slot: 2), Self.event(3, 5, person: 9, slot: 2)]
        #expect(DayTally.count(events, layout: Self.layout).segmentSharingDefaultRows == 10)
        events.append(Self.event(1, 6, person: 4, slot: 1))
        #expect(DayTally.count(events, layout: Self.layout).segmentSharingDefaultRows == nil)
    }

    /// Only test events: no default rows, so no segment shares them.
    @Test func onlyTestEvents() {
        let rows = DayTally.count([Self.event(1, 5, person: 1, slot: 2)], layout: Self.layout)
        #expect(rows.commands.isEmpty)
        #expect(rows.segmentSharingDefaultRows == nil)
    }

    /// Any one figure apart, in a command row or an element row, and the segment is not taken.
    @Test func everyFigureCounts() {
        let rows = DayTally.count([Self.event(1, 5, person: 1, slot: 0), Self.event(1, 5, person: 2, slot: 0),
                                   Self.event(1, nil, person: 3, slot: 0)],
                                  layout: Self.layout)
        #expect(rows.segmentSharingDefaultRows == 10)
        let changes: [(inout DayRows) -> Void] = [
            { $0.segmentCommands[0].selections += 1 },
            { $0.segmentCommands[0].userDays += 1 },
            { $0.segmentCommands[0].users = .empty },
            { $0.segmentCommands[0].people = [] },
            { $0.segmentCommands[0].commandID = 6 },
            { $0.segmentCommands.append($0.segmentCommands[0]) },
            { $0.segmentCommands.removeAll() },
            { $0.segmentElements[0].dismissals += 1 },
            { $0.segmentElements[0].selections += 1 },
            { $0.segmentElements[0].users = .empty },
            { $0.commands.append($0.commands[0]) },
            { $0.elements.append($0.elements[0]) },
        ]
        for (index, change) in changes.enumerated() {
            var changed = rows
            change(&changed)
            #expect(changed.segmentSharingDefaultRows == nil, "change \(index)")
        }
    }
}
