import CivilTime
import Foundation
import JSON
import Simulation
import TestSupport

/// The few `menurank simulate` options the generator tests use, read the way the command reads them
/// (same defaults), so the tests drive the Simulation module in process.
struct SimulationOptions {
    var encoder: SimulationEncoder
    var copyRowsForApp: Int?

    struct UnknownOption: Error, CustomStringConvertible {
        var description: String
    }

    static var repositoryRoot: URL {
        (try? RepositoryPaths.root()) ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    init(_ arguments: [String]) throws {
        var configuration = SimulationConfiguration()
        var profile = SimulationProfile.builtIn
        var copy = false
        var appID = 1
        var index = 0
        while index + 1 < arguments.count {
            let (name, value) = (arguments[index], arguments[index + 1])
            index += 2
            switch name {
            case "--events": configuration.events = Int(value)!
            case "--batch-size": configuration.batchSize = Int(value)!
            case "--seed": configuration.seed = UInt64(bitPattern: Int64(value)!)
            case "--users": configuration.users = Int(value)!
            case "--days": configuration.days = Int(value)!
            case "--now": configuration.now = UTCTimestamp(microsecondsSince1970: SimulationTimestamp.parseRFC3339(value)! * 1000)
            case "--manifest":
                let bytes = try Data(contentsOf: URL(fileURLWithPath: value))
                profile = try SimulationProfile.fromManifest(JSONParser.parse(bytes: Array(bytes)))
            case "--layout":
                let bytes = try Data(contentsOf: URL(fileURLWithPath: value))
                profile = try profile.showing(JSONParser.parse(bytes: Array(bytes)))
            case "--out-format": copy = value == "copy"
            case "--app-id": appID = Int(value)!
            default: throw UnknownOption(description: "unknown option \(name)")
            }
        }
        encoder = SimulationEncoder(generator: SimulationGenerator(profile: profile, configuration: configuration))
        copyRowsForApp = copy ? appID : nil
    }
}
