import Testing
import TrackCore

/// Every kind of error, with the exact line a person reads: file, line, key, problem.
@Suite("Config errors")
struct ConfigErrorTests {
    static let cases: [(text: String, message: String)] = [
        // The example from the issue: line 12, a word where metres belong.
        ("[receiver]\nbaud = auto\n\n# sampling\n\n\n\n\n\n\n[sampling]\nmin-distance = ten",
         #"trackd.conf:12: sampling.min-distance: "ten" is not a number of metres"#),
        // Malformed lines.
        ("[receiver]\nbaud 9600",
         #"trackd.conf:2: "baud 9600" is not "key = value", a [section] or a # comment"#),
        ("[receiver]\n= 9600",
         #"trackd.conf:2: "= 9600" is not "key = value", a [section] or a # comment"#),
        ("[receiver]\n\u{0}\u{0}\u{0}",
         #"trackd.conf:2: "\x00\x00\x00" is not "key = value", a [section] or a # comment"#),
        ("[receiver", #"trackd.conf:1: "[receiver" is not a [section] line"#),
        ("[receiver] baud = 9600", #"trackd.conf:1: "[receiver] baud = 9600" is not a [section] line"#),
        ("[receiver]#UART", #"trackd.conf:1: "[receiver]#UART" is not a [section] line"#),
        ("[", #"trackd.conf:1: "[" is not a [section] line"#),
        // Names.
        ("[Receiver]", "trackd.conf:1: section [Receiver]: names are lower-case-with-dashes"),
        ("[]", "trackd.conf:1: section []: names are lower-case-with-dashes"),
        ("[receiver]\nBaud = 9600", "trackd.conf:2: receiver.Baud: key names are lower-case-with-dashes"),
        ("[receiver]\nreopen_min = 1s", "trackd.conf:2: receiver.reopen_min: key names are lower-case-with-dashes"),
        ("[receiver]\nreopen min = 1s", "trackd.conf:2: receiver.reopen min: key names are lower-case-with-dashes"),
        ("[receiver]\nreopen--min = 1s", "trackd.conf:2: receiver.reopen--min: key names are lower-case-with-dashes"),
        // Unknown sections and keys, keys outside a section, duplicates.
        ("\n[recever]", "trackd.conf:2: unknown section [recever] (known: receiver, filter, sampling, log, control, "
            + "state, privacy, board, leds, fences, gpsd, places, time)"),
        ("[receiver]\nbaudrate = 9600",
         "trackd.conf:2: receiver.baudrate: unknown key (this section has: device, baud, reopen-min, reopen-max, type, rate, sentences, set-baud, power-save, power-save-after)"),
        ("[filter]\ndevice = /dev/serial0", "trackd.conf:2: filter.device: unknown key (this section has: max-age, "
            + "max-accuracy, uere, max-speed, min-satellites)"),
        ("baud = 9600\n[receiver]", "trackd.conf:1: baud: key before the first [section]"),
        ("[receiver]\nbaud = 9600\n\nbaud = 4800", "trackd.conf:4: receiver.baud: set twice (first on line 2)"),
        ("[receiver]\nbaud = 9600\n[filter]\n[receiver]\nbaud = 9600",
         "trackd.conf:5: receiver.baud: set twice (first on line 2)"),
        // Values.
        ("[receiver]\ndevice =", #"trackd.conf:2: receiver.device: no value after "=""#),
        ("[receiver]\ndevice = # the UART", #"trackd.conf:2: receiver.device: no value after "=""#),
        ("[receiver]\ndevice = serial0",
         #"trackd.conf:2: receiver.device: "serial0" is not an absolute path of at most 4095 bytes"#),
        ("[receiver]\nbaud = 1200", #"trackd.conf:2: receiver.baud: "1200" is not auto or one of 4800, 9600, "#
            + "19200, 38400, 57600, 115200, 230400, 460800"),
        ("[receiver]\nbaud = Auto", #"trackd.conf:2: receiver.baud: "Auto" is not auto or one of 4800, 9600, "#
            + "19200, 38400, 57600, 115200, 230400, 460800"),
        ("[sampling]\nprofile = walk",
         #"trackd.conf:2: sampling.profile: "walk" is not one of checkin, track, arrival"#),
        ("[log]\nannounce-syncs = true", #"trackd.conf:2: log.announce-syncs: "true" is not one of no, yes"#),
        ("[control]\nsocket = /run/" + String(repeating: "x", count: 103),
         #"trackd.conf:2: control.socket: "/run/"# + String(repeating: "x", count: 103)
            + #"" is not an absolute path of at most 107 bytes"#),
        ("[control]\ngroup = Trackd", #"trackd.conf:2: control.group: "Trackd" is not a group name "#
            + "(1 to 32 of a-z 0-9 _ -, no leading - or digit)"),
        ("[board]\nfile = board.conf",
         #"trackd.conf:2: board.file: "board.conf" is not an absolute path of at most 4095 bytes"#),
        ("[filter]\nmax-accuracy = 20000", #"trackd.conf:2: filter.max-accuracy: "20000" is outside 1 … 10000 m"#),
        ("[places]\nmin-move = 0", #"trackd.conf:2: places.min-move: "0" is outside 1 … 100000 m"#),
        ("[places]\nfile = places.bin",
         #"trackd.conf:2: places.file: "places.bin" is not an absolute path of at most 4095 bytes"#),
        ("[places]\nenabled = off", #"trackd.conf:2: places.enabled: "off" is not one of no, yes"#),
        // A unit mix-up: milliseconds where seconds are meant.
        ("[filter]\nmax-age = 5000", #"trackd.conf:2: filter.max-age: "5000" is outside 100ms … 1m"#),
        ("[log]\nsegment-age = 30s", #"trackd.conf:2: log.segment-age: "30s" is outside 1m … 720h"#),
        ("[log]\nkeyframe-interval = 2h", #"trackd.conf:2: log.keyframe-interval: "2h" is outside 10s … 1h"#),
        ("[filter]\nuere = 5.0001", #"trackd.conf:2: filter.uere: "5.0001" is finer than 1 mm"#),
        ("[receiver]\ndevice = /dev/serial0\r\nbaud = fast\r\n",
         #"trackd.conf:3: receiver.baud: "fast" is not auto or one of 4800, 9600, 19200, 38400, 57600, 115200, "#
            + "230400, 460800"),
        // Receiver control's keys.
        ("[receiver]\ntype = sirf", #"trackd.conf:2: receiver.type: "sirf" is not one of auto, ublox, mediatek, quectel, none"#),
        ("[receiver]\nrate = 4", #"trackd.conf:2: receiver.rate: "4" is not one of keep, 1, 2, 5, 10"#),
        ("[receiver]\nsentences = rmc gsx",
         #"trackd.conf:2: receiver.sentences: "rmc gsx": gsx: not a sentence trackd sets (gga gll gsa gsv rmc vtg gst zda gbs)"#),
        ("[receiver]\nsentences = gsv/0",
         #"trackd.conf:2: receiver.sentences: "gsv/0": gsv/0: the interval after / is whole epochs, 1 to 20"#),
        ("[receiver]\n\nsentences = rmc gga rmc", #"trackd.conf:3: receiver.sentences: "rmc gga rmc": rmc: named twice"#),
        ("[receiver]\nset-baud = 1200",
         #"trackd.conf:2: receiver.set-baud: "1200" is not one of keep, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"#),
        ("[receiver]\npower-save = on", #"trackd.conf:2: receiver.power-save: "on" is not one of off, sleep"#),
        ("[receiver]\npower-save-after = 5s", #"trackd.conf:2: receiver.power-save-after: "5s" is outside 10s … 24h"#),
        // Keys that contradict each other; reported at the one set last.
        ("[receiver]\nreopen-min = 1m",
         #"trackd.conf:2: receiver.reopen-min: "1m" is more than receiver.reopen-max (30s, the default)"#),
        ("[receiver]\nreopen-max = 500ms",
         #"trackd.conf:2: receiver.reopen-max: "500ms" is outside 1s … 1h"#),
        ("[receiver]\nreopen-min = 20s\nreopen-max = 10s",
         #"trackd.conf:3: receiver.reopen-max: "10s" is less than receiver.reopen-min (20s)"#),
        ("[receiver]\nreopen-max = 10s\nreopen-min = 20000ms",
         #"trackd.conf:3: receiver.reopen-min: "20000ms" is more than receiver.reopen-max (10s)"#),
        ("[fences]\nagree = 6",
         #"trackd.conf:2: fences.agree: "6" is more than fences.window (5, the default)"#),
        ("[fences]\nmin-radius = 100\nmax-radius = 50",
         #"trackd.conf:3: fences.max-radius: "50" is less than fences.min-radius (100)"#),
        ("[log]\nsegment-size = 256M",
         #"trackd.conf:2: log.segment-size: "256M" is more than half log.quota (256M, the default)"#),
        ("[log]\nquota = 1M",
         #"trackd.conf:2: log.quota: "1M" is less than twice log.segment-size (1M, the default)"#),
        ("[log]\nsegment-size = 8M\n# more\nquota = 12M",
         #"trackd.conf:4: log.quota: "12M" is less than twice log.segment-size (8M)"#),
    ]

    @Test("every error names file, line and key", arguments: cases)
    func message(text: String, message: String) {
        #expect(configError(text)?.description == message)
    }

    @Test("the error carries file, line, key and problem as values")
    func fields() {
        let error = ConfigError(file: "/etc/trackd/trackd.conf", line: 7, key: "receiver.baud",
                                problem: .duplicateKey(firstLine: 3))
        #expect(throws: error) {
            try TrackdConfig.parse("# trackd\n[receiver]\nbaud = 9600\n\n\n\nbaud = 9600\n",
                                   file: "/etc/trackd/trackd.conf")
        }
        #expect(error.description == "/etc/trackd/trackd.conf:7: receiver.baud: set twice (first on line 3)")
        let unknown = configError("[gpio]")
        #expect(unknown?.key == nil)
        #expect(unknown?.line == 1)
    }

    @Test("consistent pairs pass", arguments: [
        "[receiver]\nreopen-min = 30s", "[receiver]\nreopen-min = 1m\nreopen-max = 1m",
        "[log]\nsegment-size = 128M", "[log]\nquota = 2M", "[log]\nquota = 64K\nsegment-size = 32K",
    ])
    func consistentPairs(text: String) {
        #expect(configError(text) == nil)
    }
}
