import Foundation
import Testing

/// docker-compose.yml cannot be run here (no Docker), so these tests read it and check what can be
/// checked: the services and their wiring, and that every `menurank ...` command it names is a real
/// command of the built binary (`menurank <command...> --help` exits 0, which also rejects an
/// unknown option written before `--help`).
@Suite("docker-compose.yml")
struct ComposeFileTests {
    static func compose() throws -> ComposeYAMLNode {
        let url = CLIRunner.repositoryRoot.appendingPathComponent("docker-compose.yml")
        return try ComposeYAMLReader.read(String(contentsOf: url, encoding: .utf8))
    }

    /// Every menurank invocation of the file: the command of a service whose entrypoint is
    /// `menurank`, and each `menurank ...` line of a service that runs a shell script.
    static func invocations(_ compose: ComposeYAMLNode) throws -> [(service: String, arguments: [String])] {
        var found: [(service: String, arguments: [String])] = []
        for member in compose["services"]?.members ?? [] {
            let entrypoint = member.value["entrypoint"]?.strings ?? []
            let command = member.value["command"]?.strings ?? []
            if entrypoint == ["menurank"] {
                found.append((member.key, command))
            } else if let shell = entrypoint.first, shell.hasSuffix("sh"), entrypoint.dropFirst().first == "-c" {
                for script in command {
                    for arguments in ComposeShellCommands.menurankInvocations(in: script) {
                        found.append((member.key, arguments))
                    }
                }
            }
        }
        return found
    }

    @Test func servicesAreWiredInOrder() throws {
        let compose = try Self.compose()
        let services = try #require(compose["services"])
        #expect(services.members?.map(\.key) == ["db", "migrate", "serve", "recommend", "proxy"])
        // Images menurank builds are built here, never pulled (no registry holds them).
        for name in ["db", "migrate", "serve", "recommend"] {
            #expect(services[name]?["build"] != nil, "\(name)")
            #expect(services[name]?["pull_policy"]?.scalar == "build", "\(name)")
        }
        // TLS for devices: Caddy, only with --profile tls, with the repository's Caddyfile.
        let proxy = try #require(services["proxy"])
        #expect(proxy["profiles"]?.strings == ["tls"])
        #expect(proxy["volumes"]?.strings?.contains("./deploy/Caddyfile:/etc/caddy/Caddyfile:ro") == true)
        #expect(proxy["ports"]?.strings?.contains("443:443") == true)
        #expect(proxy["environment"]?["MENURANK_DOMAIN"]?.scalar == "${MENURANK_DOMAIN:-localhost}")

        let db = try #require(services["db"])
        #expect(db["build"]?["target"]?.scalar == "db")
        #expect(db["healthcheck"]?["test"]?.strings?.joined(separator: " ").contains("pg_isready") == true)
        #expect(db["volumes"]?.strings == ["pgdata:/var/lib/postgresql/data"])
        #expect(compose["volumes"]?["pgdata"] != nil)

        #expect(services["migrate"]?["depends_on"]?["db"]?["condition"]?.scalar == "service_healthy")
        #expect(services["migrate"]?["restart"]?.scalar == "no")
        for name in ["serve", "recommend"] {
            #expect(services[name]?["depends_on"]?["migrate"]?["condition"]?.scalar == "service_completed_successfully")
        }
        for name in ["migrate", "serve", "recommend"] {
            let url = services[name]?["environment"]?["DATABASE_URL"]?.scalar ?? ""
            #expect(url.hasPrefix("postgresql://") && url.contains("@db:5432/"), "\(name): \(url)")
        }
    }

    @Test func namesTheExpectedCommands() throws {
        let found = try Self.invocations(Self.compose())
        let byService = Dictionary(grouping: found, by: \.service).mapValues { $0.map(\.arguments) }
        #expect(byService["migrate"] == [["migrate"]])
        #expect(byService["serve"]?.first?.first == "serve")
        #expect(byService["recommend"] == [["recommend", "--all"]])
    }

    @Test func everyMenurankCommandExists() throws {
        let found = try Self.invocations(Self.compose())
        #expect(found.count >= 3)
        for (service, arguments) in found {
            let run = try CLIRunner().run(arguments + ["--help"])
            #expect(run.status == 0, "service \(service): menurank \(arguments.joined(separator: " ")) --help exited \(run.status): \(run.error)")
            #expect(!run.output.isEmpty, "service \(service): no help text")
        }
    }

    @Test func dockerfileBuildsBothImages() throws {
        let url = CLIRunner.repositoryRoot.appendingPathComponent("Dockerfile")
        let text = try String(contentsOf: url, encoding: .utf8)
        let stages = text.split(separator: "\n").filter { $0.hasPrefix("FROM ") }.map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(stages == ["build", "db", "runtime"])
        #expect(text.contains("postgresql-15-hll"))
        #expect(text.contains("COPY sql /usr/share/menurank/sql"))
        #expect(text.contains("ENTRYPOINT [\"menurank\"]"))
        for library in ["libpq5", "libmicrohttpd12", "zlib1g"] { #expect(text.contains(library)) }
        for library in ["libpq-dev", "libmicrohttpd-dev", "zlib1g-dev"] { #expect(text.contains(library)) }
    }
}
