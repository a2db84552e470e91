// swift-tools-version:6.0
// An app team's test package that uses PanelSim the way the README tells a new user to: it depends
// on PanelSim (here by path, from this repository; a user writes the URL line of the README) and
// asserts its own recorded traces with `assertPanelTrace` from XCTest and from Swift Testing.
// `.ci/run` builds and tests it after PanelSim's own suite, so the public API cannot break unseen.
import PackageDescription

let package = Package(
    name: "PanelSimConsumer",
    platforms: [.macOS(.v13), .iOS(.v15)],
    dependencies: [
        .package(name: "PanelSim", path: "../..")
    ],
    targets: [
        .testTarget(
            name: "ConsumerTests",
            dependencies: [.product(name: "PanelSimTesting", package: "PanelSim")],
            // Traces and goldens are read from the source tree (paths relative to the test file),
            // not bundled as resources.
            exclude: ["traces", "golden"])
    ],
    swiftLanguageModes: [.v6]
)
