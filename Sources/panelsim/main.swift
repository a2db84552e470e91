import PanelSimCLI
import Foundation

exit(PanelSimCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
