// swift-tools-version:6.0
// PanelSim: deterministic gesture-trace simulation harness for floating panels.
// No package dependencies: only the Swift toolchain (standard library, Foundation outside the core, XCTest).
import PackageDescription

let package = Package(
    name: "PanelSim",
    // The oldest macOS the package is meant to run on (it needs a Swift 6 toolchain). Ignored on Linux.
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "panelsim", targets: ["panelsim"]),
        .library(name: "PanelSimCore", targets: ["PanelSimCore"]),
        .library(name: "PanelTrace", targets: ["PanelTrace"]),
        .library(name: "PanelGolden", targets: ["PanelGolden"]),
        .library(name: "PanelSimCLI", targets: ["PanelSimCLI"]),
    ],
    targets: [
        // Pure simulation: no Foundation, no I/O, no globals, no wall clock.
        .target(name: "PanelSimCore"),
        // Trace model I/O: JSON, trace loading and validation, importers, digests.
        .target(name: "PanelTrace", dependencies: ["PanelSimCore"]),
        // Result files, canonical formatting, golden comparison, record modes.
        .target(name: "PanelGolden", dependencies: ["PanelSimCore", "PanelTrace"]),
        // Commands as a library so tests can call them in-process.
        .target(name: "PanelSimCLI", dependencies: ["PanelSimCore", "PanelTrace", "PanelGolden"]),
        .executableTarget(name: "panelsim", dependencies: ["PanelSimCLI"]),
        .testTarget(name: "PanelSimCoreTests", dependencies: ["PanelSimCore"]),
        .testTarget(name: "PanelTraceTests", dependencies: ["PanelTrace", "PanelSimCore"]),
        .testTarget(name: "PanelGoldenTests", dependencies: ["PanelGolden", "PanelTrace", "PanelSimCore"]),
        .testTarget(name: "PanelSimCLITests", dependencies: ["PanelSimCLI", "PanelGolden", "PanelTrace", "PanelSimCore"]),
    ],
    swiftLanguageModes: [.v6]
)
