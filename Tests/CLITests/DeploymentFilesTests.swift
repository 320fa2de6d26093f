import Foundation
import Testing
import TestSupport

/// Docker cannot run here, so the deployment files are validated by their own validators through
/// `scripts/check-deploy`: docker-compose.yml against the Compose Specification's JSON schema
/// (check-jsonschema) and deploy/Caddyfile with `caddy validate`. Broken copies must be refused,
/// so a validator that checks nothing would fail this test.
@Suite("deployment files")
struct DeploymentFilesTests {
    static let root = CLIRunner.repositoryRoot

    func checkDeploy(_ arguments: [String] = []) throws -> ChildProcess.Outcome {
        try ChildProcess.run(Self.root.appendingPathComponent("scripts/check-deploy"), arguments)
    }

    func scratch(_ name: String, _ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("menurank-deploy-\(UUID().uuidString)-\(name)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func composeFileAndCaddyfileAreValidAndBrokenOnesAreRefused() throws {
        let valid = try checkDeploy()
        #expect(valid.status == 0, "\(valid.standardOutput)\n\(valid.standardError)")
        #expect(valid.standardOutput.contains("are valid"))

        let compose = try String(contentsOf: Self.root.appendingPathComponent("docker-compose.yml"), encoding: .utf8)
        let caddyfile = Self.root.appendingPathComponent("deploy/Caddyfile").path
        let brokenCompose = try scratch("compose.yml", compose.replacingOccurrences(
            of: "      - \"127.0.0.1:8080:8080\"", with: "      - {published: [8080]}"))
        #expect(try checkDeploy([brokenCompose, caddyfile]).status != 0, "a port with a list for a number passed")
        let misspelt = try scratch("compose.yml", compose.replacingOccurrences(of: "depends_on:", with: "depends_onn:"))
        #expect(try checkDeploy([misspelt, caddyfile]).status != 0, "an unknown service key passed")

        let caddy = try String(contentsOf: URL(fileURLWithPath: caddyfile), encoding: .utf8)
        let brokenCaddy = try scratch("Caddyfile", caddy.replacingOccurrences(of: "reverse_proxy ", with: "reverse_prox "))
        let refused = try checkDeploy([Self.root.appendingPathComponent("docker-compose.yml").path, brokenCaddy])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("reverse_prox"), "\(refused.standardError)")
    }

    @Test func versionComesFromGitTags() throws {
        let version = try ChildProcess.run(Self.root.appendingPathComponent("scripts/version"))
        #expect(version.status == 0)
        let text = version.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        // A tag (1.2.0, 1.2.0-3-gabc1234) or, before the first tag, 0.0.0-dev-g<commit>.
        #expect(text.range(of: #"^([0-9]+\.[0-9]+\.[0-9]+.*|0\.0\.0-dev(-g[0-9a-f]+)?)$"#, options: .regularExpression) != nil,
                "\(text)")
        let dockerfile = try String(contentsOf: Self.root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        #expect(dockerfile.contains("ARG MENURANK_VERSION"))
        let compose = try String(contentsOf: Self.root.appendingPathComponent("docker-compose.yml"), encoding: .utf8)
        #expect(compose.contains("MENURANK_VERSION: ${MENURANK_VERSION:-0.0.0-dev}"))
    }

    /// Every C library Package.swift wraps (`.systemLibrary` with an apt provider) is installed by
    /// the Dockerfile's build stage and by scripts/deps: a library added to the package and not to
    /// the image broke `docker build` without any test noticing (libsodium-dev, 2026-12).
    @Test func everyWrappedCLibraryIsInstalledByTheDockerfileAndScriptsDeps() throws {
        let package = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let providers = package.split(separator: "\n").filter { $0.contains(".systemLibrary(") }.compactMap { line in
            line.firstRange(of: ".apt([\"").map { match in
                String(line[match.upperBound...].prefix { $0 != "\"" })
            }
        }
        #expect(providers.count >= 4, "\(providers)")
        let dockerfile = try String(contentsOf: Self.root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let buildStage = try #require(dockerfile.components(separatedBy: "FROM ").first { $0.contains("AS build") })
        let deps = try String(contentsOf: Self.root.appendingPathComponent("scripts/deps"), encoding: .utf8)
        // The packages every run installs (`packages=(...)`, also with --runtime, which scripts/demo uses).
        let start = try #require(deps.range(of: "\npackages=("), "scripts/deps has no packages=( list")
        let installed = deps[start.upperBound...].prefix { $0 != ")" }.split(whereSeparator: { $0 == " " || $0 == "\n" })
        for package in providers {
            #expect(buildStage.split(whereSeparator: { $0 == " " || $0 == "\n" }).contains(Substring(package)),
                    "the Dockerfile's build stage does not install \(package)")
            #expect(installed.contains(Substring(package)), "scripts/deps does not install \(package): \(installed)")
        }
    }
}
