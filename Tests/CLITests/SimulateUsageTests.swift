import Testing

/// `menurank simulate`'s usage errors, seen on the real binary (the generator itself is tested in
/// SimulationTests).
@Suite("simulate: usage errors")
struct SimulateUsageTests {
    @Test(arguments: [
        (["simulate"], "missing --url"),
        (["simulate", "--url", "http://127.0.0.1:1"], "missing --key"),
        (["simulate", "--out", "-", "--events", "0"], "out of range for '--events"),
        (["simulate", "--out", "-", "--now", "yesterday"], "is not an RFC 3339"),
        (["simulate", "--out", "-", "--out-format", "csv"], "csv"),
        (["simulate", "--url", "http://127.0.0.1:1", "--key", "k", "--library"], "--library goes with --pregenerate"),
    ])
    func usageErrorsExit64(_ arguments: [String], _ message: String) throws {
        let run = try CLIRunner().run(arguments)
        #expect(run.status == 64)
        #expect(run.error.contains(message), "\(run.error)")
    }

    @Test func aBadURLIsAUsageError() throws {
        let run = try CLIRunner().run(["simulate", "--url", "https://example.com", "--key", "k", "--events", "1"])
        #expect(run.status == 64)
        #expect(run.error.contains("http://"))
    }
}
