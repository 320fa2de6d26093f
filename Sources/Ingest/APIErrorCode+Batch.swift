import Events
import HTTP

extension APIErrorCode {
    /// The code of a batch error of `Events` (a pure module, which names its kinds with their code
    /// and status itself); `IngestErrorCodeTests` checks that both sides agree on each.
    init(_ kind: BatchError.Kind) {
        switch kind {
        case .invalidJSON: self = .invalidJSON
        case .tooManyEvents: self = .tooManyEvents
        default: self = .invalidBatch
        }
    }
}
