import Testing

@Suite("Compose YAML reader")
struct ComposeYAMLReaderTests {
    @Test func readsBlockAndFlowCollections() throws {
        let text = """
            # a comment
            name: demo
            services:
              a:
                command: ["serve", "--listen", '0.0.0.0:8080']   # trailing comment
                depends_on:
                  b: {condition: service_healthy}
                ports:
                  - "127.0.0.1:8080:8080"
                  - 9090
              b:
                entrypoint: [ "/bin/sh", "-c" ]
                command:
                  - |
                    echo "a # not a comment"
                    menurank x

                  - plain
                list:
                - key: value
                  other: 2
            volumes:
              data:
            """
        let node = try ComposeYAMLReader.read(text)
        #expect(node["name"]?.scalar == "demo")
        let a = try #require(node["services"]?["a"])
        #expect(a["command"]?.strings == ["serve", "--listen", "0.0.0.0:8080"])
        #expect(a["depends_on"]?["b"]?["condition"]?.scalar == "service_healthy")
        #expect(a["ports"]?.strings == ["127.0.0.1:8080:8080", "9090"])
        let b = try #require(node["services"]?["b"])
        #expect(b["entrypoint"]?.strings == ["/bin/sh", "-c"])
        #expect(b["command"]?.strings == ["echo \"a # not a comment\"\nmenurank x\n", "plain"])
        #expect(b["list"] == .sequence([.mapping([ComposeYAMLMember(key: "key", value: .scalar("value")),
                                                   ComposeYAMLMember(key: "other", value: .scalar("2"))])]))
        #expect(node["volumes"]?["data"] == .scalar(""))
    }

    @Test(arguments: [
        "a:\n  b: 1\n   c: 2",
        "a: [1, 2",
        "a: &anchor 1",
        "a: 1\na: 2",
        "a:\n\t- 1",
        "just text",
    ])
    func rejectsWhatItCannotRead(_ text: String) {
        #expect(throws: ComposeYAMLReader.ReadError.self) { try ComposeYAMLReader.read(text) }
    }

    @Test func findsMenurankCommandsInAShellScript() {
        let script = """
            while true; do
              now=$$(date -u +%s)
              sleep 5
              menurank recommend --all || echo "menurank recommend --all failed" >&2
              menurank rollup --database "postgresql://x" 2>/dev/null && menurank report --format json
              # menurank commented-out
            done
            """
        #expect(ComposeShellCommands.menurankInvocations(in: script) == [
            ["recommend", "--all"],
            ["rollup", "--database", "postgresql://x"],
            ["report", "--format", "json"],
        ])
    }
}
