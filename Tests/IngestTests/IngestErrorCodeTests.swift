import Events
import HTTP
@testable import Ingest
import Testing

/// The batch errors of `Events` carry their own code and status; the API's list of codes must
/// answer each with the same ones.
@Suite struct IngestErrorCodeTests {
    @Test(arguments: [BatchError.Kind.invalidJSON, .invalidBatch, .tooManyEvents])
    func batchKindsMatchTheirCodes(_ kind: BatchError.Kind) {
        let code = APIErrorCode(kind)
        #expect(code.code == kind.code)
        #expect(code.status == kind.httpStatus)
    }

    @Test func codesAreSnakeCaseAndUnique() {
        let all = APIErrorCode.allCases.map(\.code)
        #expect(Set(all).count == all.count)
        #expect(all.allSatisfy { $0.allSatisfy { $0 == "_" || ("a"..."z").contains($0) } })
    }
}
