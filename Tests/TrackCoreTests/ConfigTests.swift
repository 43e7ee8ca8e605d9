import Testing
import TrackCore

/// `text` parsed as `trackd.conf`.
func parseConfig(_ text: String) throws(ConfigError) -> TrackdConfig {
    try TrackdConfig.parse(text, file: "trackd.conf")
}

/// The error `text` is rejected with; nil when it parses.
func configError(_ text: String) -> ConfigError? {
    do {
        _ = try parseConfig(text)
        return nil
    } catch {
        return error
    }
}

/// The defaults with `change` applied.
func defaults(_ change: (inout TrackdConfig) -> Void) -> TrackdConfig {
    var config = TrackdConfig()
    change(&config)
    return config
}

/// A config text and the config it must give.
struct ConfigCase: Sendable, CustomTestStringConvertible {
    let text: String
    let expected: TrackdConfig
    init(_ text: String, _ change: (inout TrackdConfig) -> Void) {
        self.text = text
        expected = defaults(change)
    }
    var testDescription: String { text.replacingOccurrences(of: "\n", with: " ⏎ ") }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

@Suite("Config")
struct ConfigTests {
    @Test("an empty file, blank lines and comments give the defaults",
          arguments: ["", "\n\n", "# nothing set\n", "  \t\n# a\n\t# b\n", "[receiver]\n[board]\n"])
    func defaultsFromEmptyFile(text: String) throws {
        #expect(try parseConfig(text) == TrackdConfig())
    }

    @Test("the defaults suit a u-blox receiver on a Raspberry Pi")
    func defaultValues() {
        let config = TrackdConfig()
        #expect(config.receiver.device == "/dev/serial0")
        #expect(config.receiver.baud == .auto)
        #expect(config.receiver.reopenMinMilliseconds == 1_000)
        #expect(config.receiver.reopenMaxMilliseconds == 30_000)
        #expect(config.filter.maxAgeMilliseconds == 5_000)
        #expect(config.filter.maxAccuracyMillimetres == 65_000)
        #expect(config.filter.uereMillimetres == 5_000)
        #expect(config.filter.maxSpeedMillimetresPerSecond == 100_000)
        #expect(config.filter.minSatellites == 4)
        #expect(config.sampling == TrackdConfig.Sampling())
        #expect(config.sampling.profile == .track)
        #expect(config.sampling.minPeriodMilliseconds == nil)
        #expect(config.sampling.minDistanceMillimetres == nil)
        #expect(config.sampling.minHeadingChangeMillidegrees == nil)
        #expect(config.sampling.minSpeedChangeMillimetresPerSecond == nil)
        #expect(config.sampling.heartbeatMilliseconds == nil)
        #expect(config.sampling.accuracyLimitMillimetres == nil)
        #expect(config.log.directory == "/var/lib/trackd/log")
        #expect(config.log.syncIntervalMilliseconds == 5_000)
        #expect(config.log.quotaBytes == 268_435_456)
        #expect(config.log.segmentSizeBytes == 1_048_576)
        #expect(config.control.socket == "/run/trackd/control.sock")
        #expect(config.control.group == "trackd")
        #expect(config.state.file == "/var/lib/trackd/state")
        #expect(config.board.file == nil)
    }

    static let everyKey: [ConfigCase] = [
        ConfigCase("[receiver]\ndevice = /dev/ttyACM0") {
            $0.receiver.device = "/dev/ttyACM0"
            $0.receiver.deviceIsSet = true
        },
        ConfigCase("[receiver]\nbaud = 9600") { $0.receiver.baud = .fixed(bitsPerSecond: 9600) },
        ConfigCase("[receiver]\nbaud = 460800") { $0.receiver.baud = .fixed(bitsPerSecond: 460_800) },
        ConfigCase("[receiver]\nbaud = 4800") { $0.receiver.baud = .fixed(bitsPerSecond: 4800) },
        ConfigCase("[receiver]\nbaud = auto") { $0.receiver.baud = .auto },
        ConfigCase("[receiver]\nreopen-min = 500ms") { $0.receiver.reopenMinMilliseconds = 500 },
        ConfigCase("[receiver]\nreopen-max = 2m") { $0.receiver.reopenMaxMilliseconds = 120_000 },
        ConfigCase("[receiver]\ntype = ublox") { $0.receiver.type = .ublox },
        ConfigCase("[receiver]\ntype = none") { $0.receiver.type = .none },
        ConfigCase("[receiver]\nrate = 5") { $0.receiver.fixIntervalMilliseconds = 200 },
        ConfigCase("[receiver]\nrate = keep") { $0.receiver.fixIntervalMilliseconds = nil },
        ConfigCase("[receiver]\nsentences = RMC,gga gst/2") { $0.receiver.sentences = SentenceRates(gga: 1, rmc: 1, gst: 2) },
        ConfigCase("[receiver]\nsentences = keep") { $0.receiver.sentences = nil },
        ConfigCase("[receiver]\nset-baud = 115200") { $0.receiver.setBaud = 115_200 },
        ConfigCase("[receiver]\nset-baud = 921600") { $0.receiver.setBaud = 921_600 },
        ConfigCase("[receiver]\nset-baud = keep") { $0.receiver.setBaud = nil },
        ConfigCase("[receiver]\npower-save = sleep") { $0.receiver.powerSave = true },
        ConfigCase("[receiver]\npower-save-after = 10m") { $0.receiver.powerSaveAfterMilliseconds = 600_000 },
        ConfigCase("[filter]\nmax-age = 2s") { $0.filter.maxAgeMilliseconds = 2_000 },
        ConfigCase("[filter]\nmax-accuracy = 30") { $0.filter.maxAccuracyMillimetres = 30_000 },
        ConfigCase("[filter]\nuere = 4.5") { $0.filter.uereMillimetres = 4_500 },
        ConfigCase("[filter]\nmax-speed = 50") { $0.filter.maxSpeedMillimetresPerSecond = 50_000 },
        ConfigCase("[filter]\nmin-satellites = 0") { $0.filter.minSatellites = 0 },
        ConfigCase("[filter]\nmin-satellites = 6") { $0.filter.minSatellites = 6 },
        ConfigCase("[sampling]\nprofile = checkin") { $0.sampling.profile = .checkin },
        ConfigCase("[sampling]\nprofile = arrival") { $0.sampling.profile = .arrival },
        ConfigCase("[sampling]\nprofile = track") { $0.sampling.profile = .track },
        ConfigCase("[sampling]\nmin-period = 10s") { $0.sampling.minPeriodMilliseconds = 10_000 },
        ConfigCase("[sampling]\nmin-period = 0") { $0.sampling.minPeriodMilliseconds = 0 },
        ConfigCase("[sampling]\nmin-distance = 25") { $0.sampling.minDistanceMillimetres = 25_000 },
        ConfigCase("[sampling]\nmin-heading-change = 12.5") { $0.sampling.minHeadingChangeMillidegrees = 12_500 },
        ConfigCase("[sampling]\nmin-speed-change = 2") { $0.sampling.minSpeedChangeMillimetresPerSecond = 2_000 },
        ConfigCase("[sampling]\nheartbeat = 5m") { $0.sampling.heartbeatMilliseconds = 300_000 },
        ConfigCase("[sampling]\naccuracy-limit = 20") { $0.sampling.accuracyLimitMillimetres = 20_000 },
        ConfigCase("[log]\ndirectory = /data/trackd/log") { $0.log.directory = "/data/trackd/log" },
        ConfigCase("[log]\nsync-interval = 10s") { $0.log.syncIntervalMilliseconds = 10_000 },
        ConfigCase("[log]\nquota = 1G") { $0.log.quotaBytes = 1 << 30 },
        ConfigCase("[log]\nsegment-size = 4M") { $0.log.segmentSizeBytes = 4 << 20 },
        ConfigCase("[log]\nsegment-age = 6h") { $0.log.segmentAgeMilliseconds = 21_600_000 },
        ConfigCase("[log]\nkeyframe-interval = 60s") { $0.log.keyframeIntervalMilliseconds = 60_000 },
        ConfigCase("[log]\nannounce-syncs = yes") { $0.log.announceSyncs = true },
        ConfigCase("[log]\nannounce-syncs = no") { $0.log.announceSyncs = false },
        ConfigCase("[control]\nsocket = /run/trackd/trackd.sock") { $0.control.socket = "/run/trackd/trackd.sock" },
        ConfigCase("[control]\ngroup = gps") { $0.control.group = "gps" },
        ConfigCase("[control]\ngroup = _gps-users2") { $0.control.group = "_gps-users2" },
        ConfigCase("[state]\nfile = /data/trackd/state") { $0.state.file = "/data/trackd/state" },
        ConfigCase("[board]\nfile = /etc/trackd/board.conf") { $0.board.file = "/etc/trackd/board.conf" },
        ConfigCase("[board]\nfile =") { $0.board.file = nil },
        ConfigCase("[fences]\nfile = /data/fences.geojson") { $0.fences.file = "/data/fences.geojson" },
        ConfigCase("[fences]\nmin-radius = 50") { $0.fences.settings.minimumRadiusMetres = 50 },
        ConfigCase("[fences]\nmax-radius = 5000") { $0.fences.settings.maximumRadiusMetres = 5_000 },
        ConfigCase("[fences]\nagree = 2") { $0.fences.settings.agreeingFixes = 2 },
        ConfigCase("[fences]\nwindow = 8") { $0.fences.settings.windowFixes = 8 },
        ConfigCase("[fences]\nhysteresis = 7.5") { $0.fences.settings.hysteresisMetres = 7.5 },
        ConfigCase("[fences]\nmax-commands = 1") { $0.fences.maxCommands = 1 },
        ConfigCase("[gpsd]\nlisten = [::1]:2948") { $0.gpsd.listen = [ListenAddress(parsing: "[::1]:2948")!] },
        ConfigCase("[gpsd]\nmax-clients = 2") { $0.gpsd.maxClients = 2 },
        ConfigCase("[places]\nenabled = no") { $0.places.enabled = false },
        ConfigCase("[places]\nfile = /data/trackd/places.bin") { $0.places.file = "/data/trackd/places.bin" },
        ConfigCase("[places]\nmin-move = 500") { $0.places.minimumMoveMillimetres = 500_000 },
        ConfigCase("[places]\nmin-move = 1.5 m") { $0.places.minimumMoveMillimetres = 1_500 },
        ConfigCase("[time]\nshm = off") { $0.time.shm = .off },
        ConfigCase("[time]\nshm = 2") { $0.time.shm = .unit(2) },
        ConfigCase("[time]\nshm = 0") { $0.time.shm = .unit(0) },
        ConfigCase("[time]\nprecision = -20") { $0.time.precisionLog2Seconds = -20 },
        ConfigCase("[board]\nfile = /etc/trackd/board.conf\n[sampling]\nprofile = arrival\nheartbeat = 1h") {
            $0.board.file = "/etc/trackd/board.conf"
            $0.sampling.profile = .arrival
            $0.sampling.heartbeatMilliseconds = 3_600_000
        },
    ] + BoardConfigTests.everyKey

    @Test("every key sets its field", arguments: everyKey)
    func everyKeySetsItsField(entry: ConfigCase) throws {
        #expect(try parseConfig(entry.text) == entry.expected)
    }

    @Test("every key in the table is covered by everyKey")
    func everyKeyIsCovered() {
        for section in TrackdConfig.sections {
            for key in section.keys {
                let covered = Self.everyKey.contains { $0.text.hasPrefix("[\(section.name)]\n\(key.name) =") }
                #expect(covered, "\(section.name).\(key.name) has no case in everyKey")
            }
        }
    }

    @Test("every key's default, as the docs print it, parses to the built-in default")
    func documentedDefaultsMatch() throws {
        for section in TrackdConfig.sections {
            for key in section.keys {
                guard let defaultText = key.defaultText else { continue }
                let text = "[\(section.name)]\n\(key.name) = \(defaultText)"
                var parsed = try parseConfig(text)
                // Naming the device, even at its default, marks it as set (it wins over a board file).
                #expect(parsed.receiver.deviceIsSet == (text == "[receiver]\ndevice = /dev/serial0"))
                parsed.receiver.deviceIsSet = false
                #expect(parsed == TrackdConfig(), "\(text)")
            }
        }
    }

    @Test("every key's documented example parses and changes something")
    func documentedExamplesParse() throws {
        for section in TrackdConfig.sections {
            for key in section.keys {
                let text = "[\(section.name)]\n\(key.name) = \(key.example)"
                #expect(try parseConfig(text) != TrackdConfig(), "\(text)")
            }
        }
    }

    static let layouts: [ConfigCase] = {
        let expected: (inout TrackdConfig) -> Void = {
            $0.receiver.baud = .fixed(bitsPerSecond: 9600)
            $0.receiver.device = "/dev/ttyAMA0"
            $0.receiver.deviceIsSet = true
            $0.log.directory = "/data/#1/log"
            $0.control.group = "gps"
        }
        return [
            ConfigCase("[receiver]\nbaud = 9600\ndevice = /dev/ttyAMA0\n[log]\ndirectory = /data/#1/log\n"
                       + "[control]\ngroup = gps\n", expected),
            // Whitespace anywhere around names and values, tabs, no spaces at all.
            ConfigCase("  [receiver]  \n\tbaud\t=\t9600\t\ndevice=/dev/ttyAMA0\n[ log ]\n   directory   =   /data/#1/log"
                       + "\n[control]\ngroup=gps", expected),
            // Comments: whole lines, indented, trailing after a space or tab; "#" inside a word is data.
            ConfigCase("# trackd\n[receiver] # the UART\n  # indented\nbaud = 9600 # u-blox NEO-6M\n"
                       + "device = /dev/ttyAMA0\t# ttyS0 is the mini UART\n[log]\ndirectory = /data/#1/log #x\n"
                       + "[control]\n#group = trackd\ngroup = gps #\n", expected),
            // CRLF line ends, with and without a final line end.
            ConfigCase("[receiver]\r\nbaud = 9600\r\ndevice = /dev/ttyAMA0\r\n\r\n[log]\r\ndirectory = /data/#1/log\r\n"
                       + "[control]\r\ngroup = gps", expected),
            // A UTF-8 byte-order mark (Notepad's "UTF-8 with BOM"), with CRLF.
            ConfigCase("\u{FEFF}[receiver]\r\nbaud = 9600\r\ndevice = /dev/ttyAMA0 # BOM\r\n[log]\r\n"
                       + "directory = /data/#1/log\r\n[control]\r\ngroup = gps\r\n", expected),
            // A section may be opened again.
            ConfigCase("[receiver]\nbaud = 9600\n[log]\ndirectory = /data/#1/log\n[receiver]\ndevice = /dev/ttyAMA0"
                       + "\n[control]\ngroup = gps", expected),
        ]
    }()

    @Test("comments, whitespace, CRLF and a byte-order mark", arguments: layouts)
    func layout(entry: ConfigCase) throws {
        #expect(try parseConfig(entry.text) == entry.expected)
    }

    @Test("line numbers count every line, also blank, comment and CRLF lines, and not the BOM")
    func lineNumbers() {
        let text = "\u{FEFF}# header\r\n\r\n[receiver]\r\n  # note\r\nbaud = 1200\r\n"
        #expect(throws: ConfigError(file: "trackd.conf", line: 5, key: "receiver.baud",
                                    problem: .badValue("1200", expected: "auto or one of 4800, 9600, 19200, 38400, "
                                                       + "57600, 115200, 230400, 460800"))) {
            try parseConfig(text)
        }
    }
}
