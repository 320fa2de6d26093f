public import JSON
public import Menus
public import Storage

/// The document `GET /v1/menus` serves, now or once a proposal is accepted: what
/// `proposals accept --dry-run` and the admin API show a reviewer before the menus of every user
/// change.
public enum MenusPreview {
    /// What `GET /v1/menus` serves for these menus.
    public static func document(appName: String, menus: ServedMenus) -> JSONValue {
        MenusEndpoint.document(appName: appName, menus: menus)
    }

    /// What `GET /v1/menus` will serve once `layout` becomes the current layout of `elementType`
    /// (the edit-menu and preview attributes stay those of the current layout), with the menu
    /// version the accept assigns (`MenuVersionText.assign` from the newest manifest's version, which
    /// is the current layout's unless the element type was left out of a newer manifest).
    public static func afterAccepting(elementType: String, layout: Layout, appName: String, menus: ServedMenus)
        -> JSONValue
    {
        var changed = menus
        if let index = changed.menus.firstIndex(where: { $0.elementType == elementType }) {
            changed.menus[index].layoutJSON = layout.jsonText
            changed.menus[index].layoutVersion += 1
            changed.menus[index].menuVersion = MenuVersionText.assign(
                requested: nil, base: menus.manifestVersion, layoutVersion: Int(changed.menus[index].layoutVersion),
                taken: [menus.menus[index].menuVersion])
        }
        return document(appName: appName, menus: changed)
    }
}
