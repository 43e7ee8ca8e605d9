import CLinux
import Foundation
import Testing
import TrackCore
@testable import TrackIO

private let pi4 = FakeGPIOBackend.Chip(
    label: "pinctrl-bcm2711", path: "/dev/gpiochip0",
    lineNames: (0..<58).map { "GPIO\($0)" }, busyOffsets: [4])

@Suite struct FakeGPIOBackendTests {
    @Test func recordsAnLEDWaveform() throws {
        var gpio = FakeGPIOBackend(chips: [pi4])
        let chip = try gpio.openChip(.label("pinctrl-bcm2711"))
        let led = try gpio.findLine(named: "GPIO17", on: chip)
        try gpio.requestOutput(led, initial: .low)
        for (milliseconds, level) in [(0, GPIOLevel.high), (100, .low), (200, .high), (250, .high), (300, .low)] {
            gpio.now = .milliseconds(Int64(milliseconds))
            try gpio.set(led, to: level)
        }
        // led-fix went 1,0,1,0 at 0, 100, 200, 300 ms; the repeated high at 250 is no edge.
        #expect(gpio.waveform(of: led).map { $0.level.isHigh ? 1 : 0 } == [0, 1, 0, 1, 0])
        #expect(gpio.waveform(of: led).map { $0.time.nanoseconds / 1_000_000 } == [0, 0, 100, 200, 300])
        #expect(gpio.writes(to: led) == 5)
        gpio.releaseAll()
    }

    @Test func injectedEdgesComeOutInOrderAndWakePoll() throws {
        var gpio = FakeGPIOBackend(chips: [pi4])
        let chip = try gpio.openChip(.path("/dev/gpiochip0"))
        let button = try gpio.line(offset: 24, on: chip)
        let request = try gpio.requestInput(button)
        #expect(request.pullUpApplied)
        #expect(try gpio.readEvent(button) == nil)
        #expect(isReadable(request.eventDescriptor) == false)

        gpio.inject(.falling, on: button, at: .milliseconds(1000))
        gpio.inject(.rising, on: button, at: .milliseconds(1080))
        #expect(isReadable(request.eventDescriptor))
        #expect(try gpio.readEvent(button) == GPIOEdgeEvent(edge: .falling, timestampNanoseconds: 1_000_000_000))
        #expect(try gpio.readEvent(button) == GPIOEdgeEvent(edge: .rising, timestampNanoseconds: 1_080_000_000))
        #expect(try gpio.readEvent(button) == nil)
        #expect(isReadable(request.eventDescriptor) == false)
        gpio.releaseAll()
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        var name: String
        var error: GPIOError
        var run: @Sendable (inout FakeGPIOBackend) throws(GPIOError) -> Void
        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        Failure(name: "no such chip label", error: .noSuchChip(chip: "pinctrl-rp1")) { gpio throws(GPIOError) in
            _ = try gpio.openChip(.label("pinctrl-rp1"))
        },
        Failure(name: "no line of that name", error: .lineNotFound(line: "GPIO71", chip: "pinctrl-bcm2711")) {
            gpio throws(GPIOError) in
            _ = try gpio.findLine(named: "GPIO71", on: gpio.openChip(.label("pinctrl-bcm2711")))
        },
        Failure(name: "offset past the chip", error: .lineNotFound(line: "offset 58", chip: "pinctrl-bcm2711")) {
            gpio throws(GPIOError) in
            _ = try gpio.line(offset: 58, on: gpio.openChip(.label("pinctrl-bcm2711")))
        },
        Failure(name: "line held by an overlay", error: .lineBusy(line: "GPIO4", chip: "pinctrl-bcm2711")) {
            gpio throws(GPIOError) in
            try gpio.requestOutput(gpio.findLine(named: "GPIO4", on: gpio.openChip(.label("pinctrl-bcm2711"))),
                                   initial: .low)
        },
        Failure(name: "line requested twice", error: .lineBusy(line: "offset 17", chip: "pinctrl-bcm2711")) {
            gpio throws(GPIOError) in
            let chip = try gpio.openChip(.label("pinctrl-bcm2711"))
            try gpio.requestOutput(gpio.findLine(named: "GPIO17", on: chip), initial: .low)
            _ = try gpio.requestInput(gpio.line(offset: 17, on: chip))
        },
        Failure(name: "not in the gpio group", error: .permissionDenied(line: "GPIO17", chip: "pinctrl-bcm2711")) {
            gpio throws(GPIOError) in
            gpio.deniesRequests = true
            try gpio.requestOutput(gpio.findLine(named: "GPIO17", on: gpio.openChip(.label("pinctrl-bcm2711"))),
                                   initial: .low)
        },
        Failure(name: "set on an input", error: .notRequested(line: "GPIO24", chip: "pinctrl-bcm2711")) {
            gpio throws(GPIOError) in
            let button = try gpio.findLine(named: "GPIO24", on: gpio.openChip(.label("pinctrl-bcm2711")))
            _ = try gpio.requestInput(button)
            try gpio.set(button, to: .high)
        },
    ]

    @Test(arguments: failures)
    func failsWithATypedErrorNamingChipAndLine(_ test: Failure) {
        var gpio = FakeGPIOBackend(chips: [pi4])
        #expect(throws: test.error) { try test.run(&gpio) }
        gpio.releaseAll()
    }

    @Test func anOldKernelGivesNoPullUp() throws {
        var gpio = FakeGPIOBackend(chips: [pi4])
        gpio.supportsBias = false
        let button = try gpio.findLine(named: "GPIO24", on: gpio.openChip(.label("pinctrl-bcm2711")))
        #expect(try gpio.requestInput(button).pullUpApplied == false)
        gpio.releaseAll()
    }
}

@Suite struct LibgpiodBackendTests {
    // This machine has no /dev/gpiochip*: opening fails with ENOENT, as a Pi without the GPIO
    // driver would. The real chip is exercised on the board-level harness.
    @Test(arguments: [GPIOChipSelector.label("pinctrl-bcm2835"), .path("/dev/gpiochip0")])
    func openingAChipThatIsNotThereIsNoSuchChip(_ selector: GPIOChipSelector) throws {
        try #require(!FileSystemProbe.exists("/dev/gpiochip0"), "this test needs a machine without GPIO chips")
        var gpio = LibgpiodBackend()
        #expect(throws: GPIOError.noSuchChip(chip: selector.text)) { try gpio.openChip(selector) }
        gpio.releaseAll()
    }

    @Test func aPathThatIsNotAChipIsAnError() {
        var gpio = LibgpiodBackend()
        #expect(throws: GPIOError.self) { try gpio.openChip(.path("/dev/null")) }
        gpio.releaseAll()
    }

    @Test func theErrorSaysWhatIsMissing() {
        #expect(GPIOError.noSuchChip(chip: "pinctrl-bcm2835").description
            == "GPIO chip pinctrl-bcm2835: no such chip (ENOENT: is this a board with GPIO, and the label right?)")
        #expect(GPIOError.lineBusy(line: "GPIO17", chip: "pinctrl-rp1").description
            == "GPIO17 on pinctrl-rp1: busy (used by another program or a device-tree overlay)")
    }

    // The build compiles the backend of the libgpiod pkg-config finds (Package.swift), and each
    // backend asks its own API for the version (gpiod_version_string is v1's, gpiod_api_version
    // v2's): the library that answers must be the one pkg-config names.
    @Test func theLibraryIsTheOnePkgConfigFinds() throws {
        let pkgConfig = Process()
        pkgConfig.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        pkgConfig.arguments = ["pkg-config", "--modversion", "libgpiod"]
        let output = Pipe()
        pkgConfig.standardOutput = output
        try pkgConfig.run()
        pkgConfig.waitUntilExit()
        let found = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let major = try #require(found.split(separator: ".").first)
        #expect(LibgpiodBackend.libraryVersion.hasPrefix(major + "."))
    }
}

/// Whether poll says `descriptor` is readable right now.
private func isReadable(_ descriptor: FileDescriptor) -> Bool {
    var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
}

private enum FileSystemProbe {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
