import Menus
import Testing

@Suite("Manifest categories and titled groups")
struct ManifestCategoryTests {
    let text = """
        {
          "app": "mail",
          "categories": {
            "share": {"title": "Share"}
          },
          "commands": {
            "archive": {"title": "Archive"},
            "copy_link": {"title": "Copy Link", "category": "share"},
            "print": {"title": "Print", "category": "share"},
            "reply": {"title": "Reply"}
          },
          "menus": {
            "mail.message": {
              "groups": [
                {"title": "Respond", "items": ["reply"]},
                ["archive"],
                ["copy_link", "print"]
              ]
            }
          }
        }

        """

    @Test func categoriesAndGroupTitlesLoad() throws {
        let manifest = try ManifestParser.parse(text)
        #expect(manifest.categories == ["share": CategoryInfo(title: "Share")])
        let menu = try #require(manifest.menus["mail.message"])
        #expect(menu.groupTitles == ["Respond", nil, nil])
        #expect(menu.groupTitle(0) == "Respond")
        #expect(menu.groupTitle(2) == nil)
        #expect(menu.layout.groups.map(\.count) == [1, 1, 2])
    }

    @Test func exportRoundTripsByteForByte() throws {
        let manifest = try ManifestParser.parse(text)
        let exported = ManifestExporter().export(manifest)
        #expect(exported == text)
        #expect(try ManifestParser.parse(exported) == manifest)
        #expect(try Manifest(json: manifest.jsonValue) == manifest)
    }

    @Test func errorsNameTheirPaths() throws {
        let bad = """
            {"app": "a", "categories": {"x": {}}, "commands": {"c": {"title": "C"}},
             "menus": {"m": {"groups": [{"title": "", "items": ["c", "nope"]}, {"items": 3}]}}}
            """
        do {
            _ = try ManifestParser.parse(bad)
            Issue.record("expected an error")
        } catch {
            let paths = error.issues.map(\.path.description)
            #expect(paths.contains("categories.x.title"))
            #expect(paths.contains("menus.m.groups[0].title"))
            #expect(paths.contains("menus.m.groups[0].items[1]"))
            #expect(paths.contains("menus.m.groups[1].title"))
            #expect(paths.contains("menus.m.groups[1].items"))
        }
    }
}
