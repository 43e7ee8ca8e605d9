// swift-tools-version: 6.2
// trackd: GPS tracker firmware for Linux single-board computers.
//
// One source tree, two builds: the host build (this manifest as is) and the firmware build
// (the same daemon modules in Embedded Swift; see scripts/firmware and cross-toolchain.json).
import PackageDescription

let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "trackd",
    products: [
        .executable(name: "trackd", targets: ["trackd"]),
        .executable(name: "trackctl", targets: ["trackctl"]),
    ],
    targets: [
        // Receiver core, geodesy, codecs: the Swift standard library only. Double's rounded()
        // and squareRoot() become calls to libm's round and sqrt, which the linker does not
        // take from libswiftCore's own dependencies.
        .target(name: "TrackCore", swiftSettings: strict, linkerSettings: [.linkedLibrary("m")]),
        // The libc headers the daemon needs and libgpiod, behind one C module for every build.
        .target(
            name: "CLinux",
            // libm: debug builds call sqrt and friends where release builds use instructions.
            linkerSettings: [.linkedLibrary("gpiod"), .linkedLibrary("m")]
        ),
        // File descriptors, errno, devices: the only module that touches raw fds and pointers.
        .target(name: "TrackIO", dependencies: ["TrackCore", "CLinux"], swiftSettings: strict),
        // Wiring: commands and the daemon loop.
        .target(name: "TrackDaemon", dependencies: ["TrackCore", "TrackIO"], swiftSettings: strict),
        .executableTarget(name: "trackd", dependencies: ["TrackDaemon"], swiftSettings: strict),
        .executableTarget(name: "trackctl", dependencies: ["TrackDaemon"], swiftSettings: strict),
        // Drives the receiver pipeline over a file for scripts/bench (host build only).
        .executableTarget(name: "trackbench", dependencies: ["TrackCore", "TrackIO", "LogPowerCut"], swiftSettings: strict),
        // A log file layer that loses power at any step, and the harness that checks the log
        // after every cut: for the tests and scripts/powercut (host build only).
        .target(name: "LogPowerCut", dependencies: ["TrackCore", "TrackIO"], swiftSettings: strict),
        .testTarget(
            name: "TrackCoreTests",
            dependencies: ["TrackCore"],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TrackIOTests",
            dependencies: ["TrackIO", "TrackDaemon", "CLinux", "LogPowerCut"],
            swiftSettings: strict
        ),
        // The real trackd and trackctl binaries on a pseudo-terminal. They are run, not linked
        // (`swift build` makes them first; scripts/test does), so the tests see no C module.
        .testTarget(name: "IntegrationTests", swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
