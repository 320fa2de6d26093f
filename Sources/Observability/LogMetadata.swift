/// Key-value pairs of a log line, kept in the order they were added so lines read the same every
/// time. Setting a key that is present replaces its value in place; setting nil removes it.
public struct LogMetadata: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    public private(set) var entries: [(key: String, value: LogValue)]

    public init(dictionaryLiteral elements: (String, LogValue)...) {
        entries = []
        for (key, value) in elements { self[key] = value }
    }

    public var isEmpty: Bool { entries.isEmpty }

    public subscript(key: String) -> LogValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            let index = entries.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): entries[index].value = value
            case (let index?, nil): entries.remove(at: index)
            case (nil, let value?): entries.append((key, value))
            case (nil, nil): break
            }
        }
    }

    /// These entries followed by those of `other`; `other` wins where both have a key.
    public func merging(_ other: LogMetadata) -> LogMetadata {
        guard !other.isEmpty else { return self }
        var merged = self
        for (key, value) in other.entries { merged[key] = value }
        return merged
    }

    public static func == (lhs: LogMetadata, rhs: LogMetadata) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.key == $1.key && $0.value == $1.value }
    }
}
