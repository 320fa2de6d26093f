import Events
import JSON
import Testing

@Suite("Responses")
struct IngestResponseTests {
    @Test func theSuccessBody() throws {
        let response = IngestResponse(
            accepted: 498, duplicates: 1,
            rejected: [
                EventRejection(index: 17, id: SampleBodies.id0, code: .invalidElementType,
                               message: "element_type must be 1-128 printable ASCII characters without spaces"),
                EventRejection(index: 18, id: nil, code: .invalidEvent, message: "an event must be a JSON object, found an array"),
            ],
            serverTime: RFC3339.parse("2026-11-29T10:00:05.123456Z")!)
        #expect(response.jsonText == #"{"accepted":498,"duplicates":1,"rejected":[{"index":17,"id":"0193a4c2-6f1e-7c3a-9d2b-4e5f60718293","code":"invalid_element_type","message":"element_type must be 1-128 printable ASCII characters without spaces"},{"index":18,"code":"invalid_event","message":"an event must be a JSON object, found an array"}],"server_time":"2026-11-29T10:00:05.123Z"}"#)
        let parsed = try JSONParser.parse(bytes: response.jsonBytes())
        #expect(parsed["rejected"]?.arrayValue?.count == 2)
    }

    @Test func clientTextIsEscaped() throws {
        let nasty = "id\"},{\"injected\":true\n\u{0}\\"
        let response = IngestResponse(accepted: 0, duplicates: 0,
                                      rejected: [EventRejection(index: 0, id: nasty, code: .invalidID, message: "bad \"id\"\t")],
                                      serverTime: 0)
        let parsed = try JSONParser.parse(bytes: response.jsonBytes())
        let first = try #require(parsed["rejected"]?.arrayValue?.first)
        #expect(first["id"]?.stringValue == nasty)
        #expect(first["message"]?.stringValue == "bad \"id\"\t")
        #expect(first["injected"] == nil)
        #expect(parsed["server_time"]?.stringValue == "1970-01-01T00:00:00.000Z")
    }

    @Test func rejectionsOfARealBatchRoundTrip() throws {
        let body = SampleBodies.batch([SampleBodies.event(["id": #""bad \"quoted\" id""#]), SampleBodies.event()])
        let batch = try EventBatchDecoder().decode(Array(body.utf8))
        let response = IngestResponse(accepted: batch.events.count, duplicates: 0, rejected: batch.rejections, serverTime: 1)
        let parsed = try JSONParser.parse(bytes: response.jsonBytes())
        #expect(parsed["accepted"]?.intValue == 1)
        #expect(parsed["rejected"]?.arrayValue?.first?["id"]?.stringValue == #"bad "quoted" id"#)
        #expect(parsed["rejected"]?.arrayValue?.first?["code"]?.stringValue == "invalid_id")
    }

    @Test func errorBodies() throws {
        do {
            _ = try EventBatchDecoder().decode(Array("{\n\"events\": [,]}".utf8))
            Issue.record("no error")
        } catch {
            let parsed = try JSONParser.parse(bytes: error.jsonBytes())
            #expect(parsed["error"]?.stringValue == "invalid_json")
            #expect(parsed["line"]?.intValue == 2)
            #expect(parsed["column"]?.intValue == 12)
            #expect(parsed["offset"]?.intValue == 13)
            #expect(parsed["message"]?.stringValue?.contains("line 2, column 12") == true)
        }
        let tooMany = BatchError(kind: .tooManyEvents, message: "a batch may hold at most 1000 events")
        #expect(tooMany.jsonText == #"{"error":"too_many_events","message":"a batch may hold at most 1000 events"}"#)
        #expect(tooMany.httpStatus == 413)
        #expect(BatchError.Kind.invalidBatch.httpStatus == 400)
    }
}
