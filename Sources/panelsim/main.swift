import Foundation
import PanelSimCLI

exit(PanelSimCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
