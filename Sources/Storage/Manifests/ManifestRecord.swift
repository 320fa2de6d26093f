public import CivilTime
public import Menus

/// The newest manifest imported for an app.
public struct ManifestRecord: Sendable {
    public var appID: Int32
    public var manifestID: Int
    public var version: String
    /// The manifest as imported, with the layouts it declared.
    public var document: ManifestDocument
    public var importedAt: UTCTimestamp

    public init(appID: Int32, manifestID: Int, version: String, document: ManifestDocument, importedAt: UTCTimestamp) {
        self.appID = appID
        self.manifestID = manifestID
        self.version = version
        self.document = document
        self.importedAt = importedAt
    }
}
