// swift-tools-version: 6.2
// trackd: GPS tracker firmware for Linux single-board computers.
//
// One source tree, two builds: the host build (this manifest as is) and the firmware build
// (the same daemon modules in Embedded Swift; see scripts/firmware and cross-toolchain.json).
import PackageDescription
#if canImport(Glibc)
import Glibc
#endif

let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
]

// libm: Double's rounded() and squareRoot() become calls to round and sqrt on x86_64 (and in
// debug builds everywhere). The aarch64 firmware has instructions for them and needs nothing
// from libm; scripts/cross-build sets TRACKD_NO_LIBM=1 for it, since a libm the daemon does
// not use still costs 72 KiB resident on the board (the linker keeps a library named on the
// command line before the toolset's --as-needed).
let libm: [LinkerSetting] = Context.environment["TRACKD_NO_LIBM"] == "1" ? [] : [.linkedLibrary("m")]

// The GPIO backend follows the libgpiod that pkg-config finds: 1.x (Debian 12, Raspberry Pi OS
// bookworm) compiles Sources/TrackIO/GPIO/Libgpiod1.swift, 2.x (Debian 13, trixie: the v2 API,
// libgpiod.so.3) Libgpiod2.swift. The firmware builds point pkg-config at their sysroot
// (scripts/cross-build sets PKG_CONFIG_LIBDIR); the host build asks the host's. With no
// libgpiod found the v1 backend is compiled, and the link says what is missing.
func libgpiodVersion() -> String? {
    #if canImport(Glibc)
    guard let output = popen("pkg-config --modversion libgpiod 2>/dev/null", "r") else { return nil }
    defer { pclose(output) }
    var line = [CChar](repeating: 0, count: 64)
    guard fgets(&line, Int32(line.count), output) != nil else { return nil }
    let bytes = line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
    #else
    return nil
    #endif
}
let libgpiodMajor = libgpiodVersion().flatMap { $0.split(separator: ".").first }.flatMap { Int($0) } ?? 1
let gpioBackend: [SwiftSetting] = libgpiodMajor >= 2 ? [.define("TRACKD_LIBGPIOD2")] : []

let package = Package(
    name: "trackd",
    products: [
        .executable(name: "trackd", targets: ["trackd"]),
        .executable(name: "trackctl", targets: ["trackctl"]),
    ],
    targets: [
        // Receiver core, geodesy, codecs: the Swift standard library only. libm (above): the
        // linker does not take it from libswiftCore's own dependencies.
        .target(name: "TrackCore", swiftSettings: strict, linkerSettings: libm),
        // The libc headers the daemon needs and libgpiod (either API), behind one C module for
        // every build.
        .target(
            name: "CLinux",
            linkerSettings: [.linkedLibrary("gpiod")] + libm
        ),
        // File descriptors, errno, devices: the only module that touches raw fds and pointers.
        .target(name: "TrackIO", dependencies: ["TrackCore", "CLinux"], swiftSettings: strict + gpioBackend),
        // The daemon: the loop and its services.
        .target(name: "TrackDaemon", dependencies: ["TrackCore", "TrackIO"], swiftSettings: strict),
        // trackctl's commands, apart from the daemon: they reach it through the control socket.
        .target(name: "TrackctlCommands", dependencies: ["TrackCore", "TrackIO"], swiftSettings: strict),
        .executableTarget(name: "trackd", dependencies: ["TrackDaemon"], swiftSettings: strict),
        .executableTarget(name: "trackctl", dependencies: ["TrackctlCommands"], swiftSettings: strict),
        // Drives the receiver pipeline over a file for scripts/bench (host build only).
        .executableTarget(name: "trackbench", dependencies: ["TrackCore", "TrackIO", "LogPowerCut"], swiftSettings: strict),
        // A log file layer that loses power at any step, and the harness that checks the log
        // after every cut: for the tests and scripts/powercut (host build only).
        .target(name: "LogPowerCut", dependencies: ["TrackCore", "TrackIO"], swiftSettings: strict),
        // Where the tests find the shared data and the gazetteer, which a clone does not hold,
        // and made-up records for the log tests.
        .target(name: "TestData", dependencies: ["TrackCore"], path: "Tests/TestData", swiftSettings: strict),
        // TrackCore's fix path as the microcontroller harness runs it (MCU/Harness), on the host:
        // scripts/mcu compares its lines with those of the armv7em and riscv32 builds under qemu.
        .executableTarget(
            name: "trackcore-harness", dependencies: ["TrackCore"], path: "MCU",
            exclude: ["Board", "armv7em", "riscv32", "Fixtures", "README.md"], swiftSettings: strict
        ),
        .testTarget(
            name: "TrackCoreTests",
            dependencies: ["TrackCore", "TestData"],
            resources: [.copy("Fixtures")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "TrackIOTests",
            dependencies: ["TrackIO", "TrackDaemon", "TrackctlCommands", "CLinux", "LogPowerCut", "TestData"],
            swiftSettings: strict
        ),
        // trackctl's verbs, called as the executable calls them: arguments, files, output.
        .testTarget(
            name: "TrackctlCommandsTests",
            dependencies: ["TrackctlCommands", "TrackCore", "TrackIO", "LogPowerCut", "TestData"],
            swiftSettings: strict
        ),
        // The daemon in-process, on a scripted source, the fake GPIO backend and times the
        // tests choose: the real loop, no wall clock, no sleeps.
        .testTarget(
            name: "DaemonTests",
            dependencies: ["TrackDaemon", "TrackIO", "TrackCore", "CLinux", "TestData"],
            swiftSettings: strict
        ),
        // The real trackd and trackctl binaries on a pseudo-terminal. They are run, not linked
        // (`swift build` makes them first; scripts/test does), so the tests see no C module.
        .testTarget(name: "IntegrationTests", dependencies: ["TestData"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
