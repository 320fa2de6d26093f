// swift-tools-version:6.0
import PackageDescription

// One set of compiler settings for every target, so every file is held to the same rules.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The version `menurank --version` prints: MENURANK_VERSION at build time (`scripts/version` derives
// it from the git tags: `MENURANK_VERSION=$(scripts/version) swift build -c release`; the Dockerfile
// takes it as a build argument), else 0.0.0-dev. Read through `Context.environment`, so a change of
// it re-evaluates this manifest and rebuilds the target that holds it.
let menurankVersion = Context.environment["MENURANK_VERSION"].flatMap { $0.isEmpty ? nil : $0 } ?? "0.0.0-dev"

let package = Package(
    name: "menurank",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "menurank", targets: ["menurank"]),
        .library(name: "MenurankClient", targets: ["MenurankClient"]),
        // Fuzz targets for libFuzzer (scripts/fuzz); an ordinary build replays inputs through them.
        .executable(name: "menurank-fuzz", targets: ["menurank-fuzz"]),
    ],
    targets: [
        // C libraries from Debian, wrapped as system library targets.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The build's version string, compiled in from MENURANK_VERSION (see above).
        .target(name: "CBuildInfo", cSettings: [.define("MENURANK_VERSION", to: "\"\(menurankVersion)\"")]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // Infrastructure: each knows nothing of menus.
        // Standard library only (not even Foundation), so that every module can use it.
        .target(name: "CivilTime", swiftSettings: swiftSettings),
        // The lock for state that threads share (a POSIX mutex, which ThreadSanitizer follows).
        .target(name: "Locking", swiftSettings: swiftSettings),
        .target(name: "Postgres", dependencies: ["CLibPQ", "CivilTime", "Locking"], swiftSettings: swiftSettings),
        .target(name: "HTTP", dependencies: ["CMicroHTTPD", "CZlib", "Locking", "Escaping"], swiftSettings: swiftSettings),
        // The crypto boundary: wraps libsodium so that the domain modules using it import no C module.
        .target(name: "Hashing", dependencies: ["CSodium"], swiftSettings: swiftSettings),
        // Webhook deliveries (libcurl): one deadline per attempt, no redirects, signed bodies.
        .target(name: "Webhooks", dependencies: ["CCurl", "Hashing"], swiftSettings: swiftSettings),
        .target(name: "JSON", dependencies: ["Escaping"], swiftSettings: swiftSettings),
        // Standard library only: the one HTML escaper, the one Markdown escaper, text made safe for
        // terminals, and the rule for free text (no control or bidi formatting characters).
        .target(name: "Escaping", swiftSettings: swiftSettings),
        .target(name: "Observability", dependencies: ["CivilTime", "Locking", "Escaping"], swiftSettings: swiftSettings),
        // Standard library only: "did you mean" for a mistyped name (a command-line option, a
        // manifest member), one rule wherever a name is looked up.
        .target(name: "Suggestions", swiftSettings: swiftSettings),
        .target(name: "ArgumentParsing", dependencies: ["CivilTime", "Locking", "Suggestions"], swiftSettings: swiftSettings),

        // Pure domain: Foundation only, never a C module.
        .target(name: "Events", dependencies: ["CivilTime", "JSON", "Escaping"], swiftSettings: swiftSettings),
        .target(name: "Menus", dependencies: ["JSON", "Escaping", "Suggestions"], swiftSettings: swiftSettings),
        .target(name: "Ranking", dependencies: ["CivilTime"], swiftSettings: swiftSettings),
        .target(name: "Outcomes", dependencies: ["CivilTime", "Ranking"], swiftSettings: swiftSettings),
        // A rollout's two arms compared on the same days: always-valid intervals (mixture SPRT) over
        // people, the sample-ratio check and the verdict; no database.
        .target(name: "Experiments", dependencies: ["CivilTime", "Outcomes"], swiftSettings: swiftSettings),
        // Distinct-count sketches byte for byte as postgresql-hll stores them.
        .target(name: "Sketches", swiftSettings: swiftSettings),
        // A day's events counted into its rollup rows (usage, segments, outcomes), database-free.
        .target(name: "Rollups", dependencies: ["Sketches", "Outcomes", "Ranking"], swiftSettings: swiftSettings),
        .target(name: "Recommender", dependencies: ["Menus", "Ranking"], swiftSettings: swiftSettings),
        .target(name: "Reports", dependencies: ["CivilTime", "Menus", "Ranking", "Recommender", "JSON", "Outcomes", "Escaping",
                                              "Experiments"],
                swiftSettings: swiftSettings),
        // The nightly use case (`NightlyJob`) behind its store (`NightlyStore`): the rollup and
        // the window's usage in, proposals filed and documents out; the in-memory store counts a
        // day as the rollups do (`Rollups.DayTally`). Storage implements the store for PostgreSQL.
        .target(name: "Nightly", dependencies: ["CivilTime", "Menus", "Ranking", "Recommender", "Reports", "Locking", "JSON", "Rollups"],
                swiftSettings: swiftSettings),

        // The library apps link to send selections and fetch their menus: Foundation only (and
        // FoundationNetworking on Linux), no menurank module that imports C, so it builds for Apple
        // platforms too.
        .target(name: "MenurankClient", swiftSettings: swiftSettings),

        // Synthetic telemetry for demos, tests and the ingestion benchmark: generation, encoding, sending.
        .target(name: "Simulation", dependencies: ["CivilTime", "JSON", "HTTP", "MenurankClient", "Locking", "Ranking"], swiftSettings: swiftSettings),

        // Adapters: menurank's schema, the ingestion daemon, the commands.
        .target(name: "Storage",
                dependencies: ["Postgres", "CivilTime", "Events", "Menus", "Ranking", "Hashing", "Outcomes", "Locking", "Rollups",
                               "Sketches", "Experiments", "Nightly", "Reports"],
                swiftSettings: swiftSettings),
        .target(name: "Ingest", dependencies: ["HTTP", "Storage", "CivilTime", "Events", "JSON", "Observability", "Menus", "Reports",
                                             "Hashing", "Postgres", "Locking", "Escaping", "Experiments", "Ranking", "Outcomes"],
                swiftSettings: swiftSettings),
        .target(name: "MenurankCommands",
                dependencies: ["ArgumentParsing", "CivilTime", "Storage", "Ingest", "Menus", "Ranking", "CBuildInfo", "Recommender",
                               "Reports", "Nightly", "Events", "JSON", "Observability", "Postgres", "Simulation",
                               "Outcomes", "Escaping", "Experiments", "Webhooks", "Locking"],
                swiftSettings: swiftSettings),
        // Linked with jemalloc (Debian's libjemalloc): the nightly run allocates and frees many
        // small and a few large blocks on several threads at once, where glibc's malloc took about
        // 5% more of the client's CPU time (docs/benchmarks.md, session 11).
        .executableTarget(name: "menurank", dependencies: ["MenurankCommands"], swiftSettings: swiftSettings,
                          linkerSettings: [.linkedLibrary("jemalloc")]),
        .executableTarget(name: "menurank-fuzz", dependencies: ["CivilTime", "Events", "HTTP", "Menus", "Escaping"],
                          swiftSettings: swiftSettings),

        // Shared by the tests: a private PostgreSQL schema per suite, the one way to start the built binary
        // and helper processes (posix_spawn), the seeded generator, the raw HTTP clients (well-formed and
        // malformed requests).
        .target(name: "TestSupport", dependencies: ["Postgres", "Locking", "CivilTime", "HTTP"], swiftSettings: swiftSettings),

        .testTarget(name: "CivilTimeTests", dependencies: ["CivilTime"], swiftSettings: swiftSettings),
        .testTarget(name: "LockingTests", dependencies: ["Locking"], swiftSettings: swiftSettings),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "TestSupport", "CivilTime", "Locking"], swiftSettings: swiftSettings),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "Locking", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "JSONTests", dependencies: ["JSON"], swiftSettings: swiftSettings),
        .testTarget(name: "EscapingTests", dependencies: ["Escaping", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "HashingTests", dependencies: ["Hashing"], swiftSettings: swiftSettings),
        .testTarget(name: "ObservabilityTests", dependencies: ["Observability", "Locking", "CivilTime"], swiftSettings: swiftSettings),
        .testTarget(name: "EventsTests", dependencies: ["CivilTime", "Events", "JSON", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MenusTests", dependencies: ["Menus", "JSON", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "OutcomesTests", dependencies: ["CivilTime", "Outcomes", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "ExperimentsTests", dependencies: ["CivilTime", "Experiments", "Outcomes", "MenurankClient", "TestSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "RecommenderTests", dependencies: ["Recommender", "Ranking", "Menus", "Reports", "JSON", "TestSupport",
                                                          "Experiments", "CivilTime"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "SketchesTests", dependencies: ["Sketches", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "RollupsTests", dependencies: ["Rollups", "Sketches", "Outcomes", "Ranking"], swiftSettings: swiftSettings),
        .testTarget(name: "NightlyTests", dependencies: ["CivilTime", "Nightly", "Ranking", "Recommender", "Menus", "Reports", "Locking"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "ArgumentParsingTests",
                    dependencies: ["ArgumentParsing", "Suggestions", "MenurankCommands", "TestSupport", "Recommender", "Menus",
                                   "Ingest", "Storage", "CivilTime"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "StorageTests",
                    dependencies: ["Storage", "Postgres", "TestSupport", "Events", "Menus", "Hashing", "Ranking", "Outcomes",
                                   "Locking", "CivilTime", "Sketches", "Experiments", "Nightly", "Recommender"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "IngestTests",
                    dependencies: ["Ingest", "Storage", "Postgres", "TestSupport", "HTTP", "Observability", "Events",
                                   "Locking", "Ranking", "Hashing", "CivilTime"],
                    swiftSettings: swiftSettings),
        // examples/instrumented-menu: a pretend app's context menu instrumented with the library.
        .executableTarget(name: "menurank-example", dependencies: ["MenurankClient"], path: "examples/instrumented-menu",
                          swiftSettings: swiftSettings),
        // An app stand-in that the client tests kill at random points.
        .executableTarget(name: "menurank-client-probe", dependencies: ["MenurankClient"], path: "Tests/ClientProbe",
                          swiftSettings: swiftSettings),
        // scripts/bench-client: record's cost against a baseline loop, in interleaved rounds.
        .executableTarget(name: "menurank-client-bench", dependencies: ["MenurankClient"], path: "Tests/ClientBench",
                          swiftSettings: swiftSettings),
        .testTarget(name: "MenurankClientTests",
                    dependencies: ["MenurankClient", "TestSupport", "Postgres", "HTTP", "Events"], swiftSettings: swiftSettings),
        .testTarget(name: "SimulationTests", dependencies: ["CivilTime", "Simulation", "JSON", "TestSupport", "MenurankClient"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "CLITests", dependencies: ["TestSupport", "Postgres", "HTTP"], swiftSettings: swiftSettings),
    ]
)
