import Foundation
import MenurankCommands

exit(await Menurank.main(arguments: Array(CommandLine.arguments.dropFirst()),
                         environment: ProcessInfo.processInfo.environment))
