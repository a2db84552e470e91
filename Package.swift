// swift-tools-version:6.0
// PanelSim: deterministic gesture-trace simulation harness for floating panels.
// No package dependencies: only the Swift toolchain (standard library, Foundation outside the core, XCTest).
import PackageDescription

let package = Package(
    name: "PanelSim",
    // The oldest macOS and iOS the package is meant to run on (it needs a Swift 6 toolchain). Ignored
    // on Linux. iOS 15 is a floor with margin: the libraries a test target imports use nothing newer
    // than iOS 13 (Swift Testing's own minimum), but no Mac was available to build them for iOS, so
    // no lower floor is claimed (README, "What was verified where").
    platforms: [.macOS(.v13), .iOS(.v15)],
    products: [
        .executable(name: "panelsim", targets: ["panelsim"]),
        .library(name: "PanelSimCore", targets: ["PanelSimCore"]),
        .library(name: "PanelTrace", targets: ["PanelTrace"]),
        .library(name: "PanelGolden", targets: ["PanelGolden"]),
        .library(name: "PanelSimCLI", targets: ["PanelSimCLI"]),
        // The assertion a test target imports (XCTest and Swift Testing); builds for iOS.
        .library(name: "PanelSimTesting", targets: ["PanelSimTesting"]),
        // The recorder an app links in a debug build to record traces on a device (UIKit).
        .library(name: "PanelSimRecorder", targets: ["PanelSimRecorder"]),
    ],
    targets: [
        // Pure simulation: no Foundation, no I/O, no globals, no wall clock.
        .target(name: "PanelSimCore"),
        // Trace model I/O: JSON, trace loading and validation, importers, digests.
        .target(name: "PanelTrace", dependencies: ["PanelSimCore"]),
        // Result files, canonical formatting, golden comparison, record modes.
        .target(name: "PanelGolden", dependencies: ["PanelSimCore", "PanelTrace"]),
        // `assertPanelTrace` and `PanelTraces` for a user's own tests: no CLI, no Process.
        .target(name: "PanelSimTesting", dependencies: ["PanelSimCore", "PanelTrace", "PanelGolden"]),
        // The invariants of scenarios.md as a checker, the random-gesture generator and the trace
        // minimizer: shared by `panelsim soak` and the tests.
        .target(name: "PanelInvariants", dependencies: ["PanelSimCore", "PanelTrace"]),
        // Commands as a library so tests can call them in-process.
        .target(name: "PanelSimCLI", dependencies: ["PanelSimCore", "PanelTrace", "PanelGolden", "PanelInvariants"]),
        .executableTarget(name: "panelsim", dependencies: ["PanelSimCLI"]),
        // UIKit's interface as the recorder and the recording adapters use it, transcribed for
        // platforms without UIKit (Linux, macOS); every file is empty where UIKit exists.
        .target(name: "PanelSimUIKitStubs"),
        // Recording traces in an app: touches at the window, observations, environment, files.
        .target(name: "PanelSimRecorder", dependencies: ["PanelSimCore", "PanelTrace", "PanelSimUIKitStubs"]),
        // The public API of FloatingPanel 3.2, DrawerKit and LNPopupController 4.5.6 as the adapters
        // use it, so that examples/recording compiles without them; never a product (the real
        // libraries' module names stay free for an app that depends on both).
        .target(name: "FloatingPanelInterfaceStubs", dependencies: ["PanelSimUIKitStubs"],
                path: "Tests/InterfaceStubs/FloatingPanelInterfaceStubs", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "DrawerKitInterfaceStubs", dependencies: ["PanelSimUIKitStubs"],
                path: "Tests/InterfaceStubs/DrawerKitInterfaceStubs", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "LNPopupControllerInterfaceStubs", dependencies: ["PanelSimUIKitStubs"],
                path: "Tests/InterfaceStubs/LNPopupControllerInterfaceStubs", swiftSettings: [.swiftLanguageMode(.v5)]),
        // The per-system adapters an app copies (examples/recording), compiled here against the stubs.
        .target(name: "PanelSimRecordingAdapters",
                dependencies: ["PanelSimRecorder", "PanelSimCore", "PanelSimUIKitStubs", "FloatingPanelInterfaceStubs",
                               "DrawerKitInterfaceStubs", "LNPopupControllerInterfaceStubs"],
                path: "examples/recording", exclude: ["README.md"]),
        .testTarget(name: "PanelSimCoreTests", dependencies: ["PanelSimCore"]),
        .testTarget(name: "PanelTraceTests", dependencies: ["PanelTrace", "PanelSimCore", "PanelInvariants"]),
        .testTarget(name: "PanelGoldenTests", dependencies: ["PanelGolden", "PanelTrace", "PanelSimCore"]),
        // PanelSimCLI only to compare with `check`'s own output.
        .testTarget(name: "PanelSimTestingTests", dependencies: ["PanelSimTesting", "PanelSimCLI", "PanelGolden", "PanelTrace", "PanelSimCore"]),
        .testTarget(name: "PanelSimRecorderTests",
                    dependencies: ["PanelSimRecorder", "PanelSimRecordingAdapters", "PanelSimUIKitStubs",
                                   "FloatingPanelInterfaceStubs", "DrawerKitInterfaceStubs", "LNPopupControllerInterfaceStubs",
                                   "PanelSimCLI", "PanelGolden", "PanelTrace", "PanelSimCore"]),
        // A fifth panel system defined and registered outside Sources/ (ARCHITECTURE.md, "Adding a system").
        .testTarget(name: "PanelSystemPluginTests", dependencies: ["PanelSimCLI", "PanelSimTesting", "PanelGolden", "PanelTrace", "PanelSimCore", "PanelInvariants"]),
        .testTarget(name: "PanelSimCLITests", dependencies: ["PanelSimCLI", "PanelGolden", "PanelTrace", "PanelSimCore", "PanelInvariants"]),
    ],
    swiftLanguageModes: [.v6]
)
