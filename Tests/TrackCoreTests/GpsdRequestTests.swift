import Testing
import TrackCore

private func parse(_ text: String) -> GpsdRequest {
    let bytes = Array(text.utf8)
    return GpsdRequest.parse(bytes.span)
}

private func watch(_ configure: (inout GpsdWatchChange) -> Void) -> GpsdRequest {
    var change = GpsdWatchChange()
    configure(&change)
    return .watch(change)
}

@Suite("gpsd requests")
struct GpsdRequestTests {
    static let cases: [(String, GpsdRequest)] = [
        ("?POLL", .poll),
        ("?DEVICES", .devices),
        ("?VERSION", .version),
        ("?WATCH", .watch(GpsdWatchChange())),
        // What gpspipe -w, gpspipe -r and python's gps module send.
        ("?WATCH={\"enable\":true,\"json\":true}", watch { $0.enable = true; $0.json = true }),
        ("?WATCH={\"enable\":true,\"nmea\":true}", watch { $0.enable = true; $0.nmea = true }),
        ("?WATCH={\"enable\":true,\"raw\":1}", watch { $0.enable = true; $0.raw = 1 }),
        ("?WATCH={\"enable\":false}", watch { $0.enable = false }),
        ("?WATCH={ \"enable\" : true , \"scaled\":false, \"timing\":true }", watch { $0.enable = true }),
        ("?WATCH={\"enable\":true,\"device\":\"/dev/serial0\"}", watch { $0.enable = true; $0.device = GpsdDevicePath("/dev/serial0") }),
        // gpsd 3.22 takes a request without its closing brace.
        ("?WATCH={\"enable\":true", watch { $0.enable = true }),
        ("?WATCH={}", .watch(GpsdWatchChange())),
        // Negative cases.
        ("?WATCH=", .unknown),
        ("?WATCH={enable:true}", .unknown),
        ("?WATCH={\"enable\":yes}", .unknown),
        ("?WATCH={\"enable\":true]", .unknown),
        ("?WATCH={\"device\":\"/dev/x", .unknown),
        ("?POLLS", .unknown),
        ("?poll", .unknown),
        ("?", .unknown),
        ("", .unknown),
        ("?FOO", .unknown),
        ("?DEVICE", .unknown),
        ("\u{0}\u{0}", .unknown),
    ]

    @Test(arguments: cases)
    func parses(_ text: String, _ expected: GpsdRequest) {
        #expect(parse(text) == expected)
    }

    @Test func enableAloneTurnsJSONOn() {
        var watch = GpsdWatch()
        var change = GpsdWatchChange()
        change.enable = true
        watch.apply(change)
        #expect(watch.wantsJSON && !watch.wantsSentences)
        var raw = GpsdWatch()
        change.nmea = true
        raw.apply(change)
        #expect(!raw.wantsJSON && raw.wantsSentences)
        var off = raw
        var disable = GpsdWatchChange()
        disable.enable = false
        off.apply(disable)
        #expect(!off.wantsJSON && !off.wantsSentences)
    }

    @Test func byteSoupNeverTraps() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...90, using: &generator)
            var bytes = Array("?WATCH={".utf8)
            for _ in 0..<length { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
            _ = GpsdRequest.parse(bytes.span)
        }
    }
}

@Suite("listen addresses")
struct ListenAddressTests {
    static let good: [(String, String)] = [
        ("127.0.0.1:2947", "127.0.0.1:2947"),
        ("[::1]:2947", "[::1]:2947"),
        ("[::]:1", "[::]:1"),
        ("0.0.0.0:65535", "0.0.0.0:65535"),
        ("[fe80:0:0:0:1:0:0:2]:2947", "[fe80::1:0:0:2]:2947"),
        ("[2001:DB8::1]:80", "[2001:db8::1]:80"),
        // Leading zeros mean nothing (never octal), in a port, a part or a group.
        ("127.0.0.1:002947", "127.0.0.1:2947"), ("127.000.0.01:1", "127.0.0.1:1"), ("[0:0::0001]:1", "[::1]:1"),
    ]

    @Test(arguments: good)
    func parsesAndWrites(_ text: String, _ shown: String) throws {
        let address = try #require(ListenAddress(parsing: text))
        var buffer = TextBuffer()
        address.write(to: &buffer)
        #expect(buffer.string == shown)
    }

    @Test(arguments: ["127.0.0.1", "127.0.0.1:0", "127.0.0.1:65536", "256.0.0.1:1", "1.2.3:4", "::1:2947",
                      "[::1:2947", "[1:2:3:4:5:6:7:8:9]:1", "[1::2::3]:1", "localhost:2947", "", ":2947", "[::1]:",
                      "127.0.0.1:+2947", "127.0.0.1:-1", "127.0.0.1: 2947", "127.0.0.1:2947 ", "127.0.0.1:99999999999999999999",
                      "0127.0.0.1:1", "+1.0.0.1:1", "1..0.1:1", "[::fffff]:1", "[::+1]:1", "[::0x1]:1", "[1:::2]:1"])
    func rejects(_ text: String) {
        #expect(ListenAddress(parsing: text) == nil)
    }

    @Test func lists() throws {
        #expect(parseListenAddresses("")?.count == 0)
        #expect(parseListenAddresses("127.0.0.1:2947, [::1]:2947")?.count == 2)
        #expect(parseListenAddresses("127.0.0.1:2947,") == nil)
        #expect(ListenAddress(parsing: "127.0.0.2:1")?.isLoopback == true)
        #expect(ListenAddress(parsing: "[::1]:1")?.isLoopback == true)
        #expect(ListenAddress(parsing: "10.0.0.1:1")?.isLoopback == false)
    }

    @Test func configSection() throws {
        let config = try TrackdConfig.parse("[gpsd]\nlisten =\nmax-clients = 3\n", file: "trackd.conf")
        #expect(config.gpsd.listen.isEmpty && config.gpsd.maxClients == 3)
        #expect(TrackdConfig().gpsd.listen.count == 2)
        #expect(throws: ConfigError.self) { try TrackdConfig.parse("[gpsd]\nlisten = localhost\n", file: "trackd.conf") }
        #expect(throws: ConfigError.self) { try TrackdConfig.parse("[gpsd]\nmax-clients = 17\n", file: "trackd.conf") }
    }
}
