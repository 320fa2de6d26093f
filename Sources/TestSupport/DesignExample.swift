/// DESIGN.md's worked example, shared by the suites that run it: the manifest of "Menu manifest"
/// and the 28-day selections of the recommendation example under "Grouping".
public enum DesignExample {
    /// The example manifest as a document, for the app `app` (DESIGN.md's is "mail").
    public static func manifest(app: String = "mail") -> String {
        """
        {
          "app": "\(app)",
          "version": "2026.11.1",
          "commands": {
            "reply":     {"title": "Reply"},
            "reply_all": {"title": "Reply All"},
            "forward":   {"title": "Forward"},
            "archive":   {"title": "Archive"},
            "move":      {"title": "Move..."},
            "flag":      {"title": "Flag", "keep": true},
            "copy_link": {"title": "Copy Link"},
            "print":     {"title": "Print"},
            "delete":    {"title": "Delete", "destructive": true}
          },
          "menus": {
            "mail.message": {
              "groups": [
                ["reply", "reply_all", "forward"],
                ["move", "archive", "flag"],
                [{"submenu": "Share", "items": ["copy_link", "print"]}],
                ["delete"]
              ]
            }
          }
        }
        """
    }

    /// The 28-day selections per command, in the order DESIGN.md lists them (total 10,140).
    public static let selections: [(String, Int)] = [
        ("reply", 4100), ("forward", 1800), ("reply_all", 1250), ("archive", 1010), ("move", 830),
        ("flag", 440), ("copy_link", 300), ("delete", 390), ("print", 20),
    ]
}
