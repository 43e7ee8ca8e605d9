// The table of every section and key. The parser reads it, the docs are generated from it
// (scripts/gen-config-docs), and a test checks docs/config.md and board/trackd.conf.example
// against it, so a key added here is documented or the tests fail.
//
// Ranges are sanity limits that catch typos and unit mix-ups (`max-age = 5000` meant as ms),
// wide enough for any real tracker.

extension TrackdConfig {
    /// Every section and key trackd.conf may hold, in the order docs/config.md lists them,
    /// e.g. `sections[0].name == "receiver"`.
    public static let sections: [ConfigSection] = [
        receiverSection, filterSection, samplingSection, logSection, controlSection, stateSection, privacySection,
        boardSection, ledsSection,
        fencesSection, gpsdSection, placesSection, timeSection,
    ]

    /// Pairs of keys where `lower` × `factor` ≤ `upper` must hold, checked after the whole file.
    static let orderRules: [ConfigOrder] = [
        ConfigOrder(lower: "receiver.reopen-min", upper: "receiver.reopen-max", factor: 1),
        // Deleting the oldest segment must leave room for the open one.
        ConfigOrder(lower: "log.segment-size", upper: "log.quota", factor: 2),
        ConfigOrder(lower: "fences.min-radius", upper: "fences.max-radius", factor: 1),
        ConfigOrder(lower: "fences.agree", upper: "fences.window", factor: 1),
    ]
}

/// `lower` × `factor` ≤ `upper`, for two numeric keys named `section.key`.
struct ConfigOrder: Sendable {
    let lower: String
    let upper: String
    let factor: Int64
}

private let receiverSection = ConfigSection("receiver", "The GPS receiver's serial port, and how trackd sets the receiver up.", [
    ConfigKey("device", .path(maxBytes: 4095, optional: false), default: "/dev/serial0", example: "/dev/ttyACM0",
              """
              Serial device of the receiver. `/dev/serial0` is the Raspberry Pi's primary UART; \
              USB receivers appear as `/dev/ttyACM0` or `/dev/ttyUSB0`.
              """) { config, value in
        config.receiver.device = value.text
        config.receiver.deviceIsSet = true
    },
    ConfigKey("baud", .baud, default: "auto", example: "9600",
              """
              Serial speed in bits per second. `auto` tries the common rates until checksummed \
              sentences arrive.
              """) { config, value in
        config.receiver.baud = value.number == 0 ? .auto : .fixed(bitsPerSecond: UInt32(value.number))
    },
    ConfigKey("reopen-min", .duration(100...600_000), default: "1s", example: "500ms",
              """
              Wait before the first attempt to reopen a receiver that went away (USB unplugged, \
              UART error); the wait grows after each failed attempt, up to `reopen-max`.
              """) { $0.receiver.reopenMinMilliseconds = $1.number },
    ConfigKey("reopen-max", .duration(1_000...3_600_000), default: "30s", example: "1m",
              "Longest wait between attempts to reopen the receiver; at least `reopen-min`.") {
        $0.receiver.reopenMaxMilliseconds = $1.number
    },
] + receiverControlKeys)

private let filterSection = ConfigSection("filter", "The limits a fix must meet before sampling and fences see it.", [
    ConfigKey("max-age", .duration(100...60_000), default: "5s", example: "2s",
              "A fix older than this is stale and is dropped.") { $0.filter.maxAgeMilliseconds = $1.number },
    ConfigKey("max-accuracy", .distance(1_000...10_000_000), default: "65", example: "30",
              """
              A fix whose horizontal accuracy is worse than this many metres is dropped. The \
              accuracy is the receiver's GST error when it sends GST, else HDOP × `uere`.
              """) { $0.filter.maxAccuracyMillimetres = Int32($1.number) },
    ConfigKey("uere", .distance(100...100_000), default: "5.0", example: "4.5",
              """
              User equivalent range error in metres: a fix's accuracy is HDOP × `uere` when the \
              receiver sends no GST, e.g. HDOP 1.2 → 6 m.
              """) { $0.filter.uereMillimetres = Int32($1.number) },
    ConfigKey("max-speed", .speed(1_000...1_000_000), default: "100", example: "50",
              """
              A fix that implies moving faster than this from the previous one is an implausible \
              jump and is dropped. 100 m/s is 360 km/h.
              """) { $0.filter.maxSpeedMillimetresPerSecond = Int32($1.number) },
    ConfigKey("min-satellites", .count(0...32), default: "4", example: "5",
              """
              A fix from fewer satellites is dropped; 0 turns the check off. Four is the fewest \
              for a 3D solution: with three a receiver assumes an altitude, and the error of that \
              guess does not show in HDOP.
              """) { $0.filter.minSatellites = UInt8($1.number) },
])

private let samplingSection = ConfigSection("sampling", """
    Which fixes are logged: a named profile, and any of its values overridden. A key left out \
    keeps the profile's value. A fix within the accuracy limit is logged when any trigger fires \
    (distance, heading change, speed change, period while moving, heartbeat); a trigger set to 0 \
    is off. The first fix is always logged.
    """, [
    ConfigKey("profile", .choice(TrackdConfig.Sampling.Profile.allCases.map { $0.rawValue }),
              default: "track", example: "checkin",
              """
              Named sampling policy: `checkin` (where the device was), `track` (the route) or \
              `arrival` (dense and accurate).
              """) { config, value in
        config.sampling.profile = TrackdConfig.Sampling.Profile.allCases[Int(value.number)]
    },
    ConfigKey("min-period", .duration(0...86_400_000), default: nil, example: "10s",
              """
              While moving, a fix is logged once this long has passed since the last logged fix \
              (other triggers may log sooner); 0 turns this trigger off.
              """) { $0.sampling.minPeriodMilliseconds = $1.number },
    ConfigKey("min-distance", .distance(0...100_000_000), default: nil, example: "25",
              "A fix this many metres or more from the last logged fix is logged; 0 turns this trigger off.") {
        $0.sampling.minDistanceMillimetres = Int32($1.number)
    },
    ConfigKey("min-heading-change", .angle(0...180_000), default: nil, example: "30",
              """
              A change of course of this many degrees or more since the last logged fix, both \
              moving, logs the fix; 0 turns this trigger off.
              """) {
        $0.sampling.minHeadingChangeMillidegrees = Int32($1.number)
    },
    ConfigKey("min-speed-change", .speed(0...100_000), default: nil, example: "2",
              """
              A change of speed of this many m/s or more since the last logged fix logs the fix; \
              0 turns this trigger off.
              """) {
        $0.sampling.minSpeedChangeMillimetresPerSecond = Int32($1.number)
    },
    ConfigKey("heartbeat", .duration(1_000...86_400_000), default: nil, example: "5m",
              "Longest time without a logged fix: when nothing else triggered, a fix is logged anyway.") {
        $0.sampling.heartbeatMilliseconds = $1.number
    },
    ConfigKey("accuracy-limit", .distance(1_000...10_000_000), default: nil, example: "20",
              "Fixes whose accuracy is worse than this many metres are not logged.") {
        $0.sampling.accuracyLimitMillimetres = Int32($1.number)
    },
])

private let logSection = ConfigSection("log", "The append-only track log on flash.", [
    ConfigKey("directory", .path(maxBytes: 4095, optional: false), default: "/var/lib/trackd/log",
              example: "/data/trackd/log", "Folder of the log segment files.") { $0.log.directory = $1.text },
    ConfigKey("sync-interval", .duration(100...600_000), default: "5s", example: "10s",
              """
              Longest time between syncs of the log to flash: a power cut loses at most this much \
              of the track. Shorter means more writes to the flash.
              """) { $0.log.syncIntervalMilliseconds = $1.number },
    ConfigKey("quota", .size((64 << 10)...(1 << 40)), default: "256M", example: "1G",
              """
              Most space the log may take; when it is full the oldest segments are deleted. At \
              least twice `segment-size`.
              """) { $0.log.quotaBytes = $1.number },
    ConfigKey("segment-size", .size((4 << 10)...(256 << 20)), default: "1M", example: "4M",
              "Size at which a segment file is closed and the next one begun.") {
        $0.log.segmentSizeBytes = $1.number
    },
    ConfigKey("segment-age", .duration(60_000...2_592_000_000), default: "24h", example: "6h",
              "Longest time a segment file stays open before the next one is begun.") {
        $0.log.segmentAgeMilliseconds = $1.number
    },
    ConfigKey("keyframe-interval", .duration(10_000...3_600_000), default: "300s", example: "60s",
              """
              Record time between keyframes, which start a new prediction context: damage to \
              one chunk loses at most this much of the track. Shorter costs a few bytes more.
              """) { $0.log.keyframeIntervalMilliseconds = $1.number },
    ConfigKey("announce-syncs", .choice(["no", "yes"]), default: "no", example: "yes",
              """
              `yes`: trackd writes a line to stderr each time a sync made records durable, e.g. \
              `trackd: log synced: 42 records durable, last fix 2026-05-30T12:00:41.000Z` (the \
              count is since start). For power-cut tests and bring-up; the journal gets one line \
              per sync.
              """) { $0.log.announceSyncs = $1.number == 1 },
])

private let controlSection = ConfigSection("control", "The Unix socket `trackctl` talks to.", [
    // sockaddr_un.sun_path holds 108 bytes with the terminating NUL.
    ConfigKey("socket", .path(maxBytes: 107, optional: false), default: "/run/trackd/control.sock",
              example: "/run/trackd/trackd.sock", "Socket path, created with mode 0660.") {
        $0.control.socket = $1.text
    },
    ConfigKey("group", .groupName, default: "trackd", example: "gps",
              "Group that owns the socket: its members may run `trackctl`.") { $0.control.group = $1.text },
])

private let stateSection = ConfigSection("state", "What must survive power cuts.", [
    ConfigKey("file", .path(maxBytes: 4095, optional: false), default: "/var/lib/trackd/state",
              example: "/data/trackd/state",
              "Permission state, odometer and counters, written atomically.") { $0.state.file = $1.text },
])
private let fencesSection = ConfigSection("fences", "Geofences: the file, and how a transition is confirmed.", [
    ConfigKey("file", .path(maxBytes: 4095, optional: false), default: "/etc/trackd/fences.geojson",
              example: "/data/trackd/fences.geojson",
              """
              GeoJSON FeatureCollection of Polygon, MultiPolygon and Point (with `properties.radius`) \
              features; `trackctl fence validate FILE` checks one. trackd maps it compiled: \
              `fences.image` beside `state.file`, compiled again (`trackctl fence compile`) when the \
              file or the radius limits change. A missing file means no fences.
              """) { $0.fences.file = $1.text },
    ConfigKey("min-radius", .distance(1_000...1_000_000), default: "10", example: "50",
              "Smallest circle radius in metres a fences file may use.") {
        $0.fences.settings.minimumRadiusMetres = Double($1.number) / 1000
    },
    ConfigKey("max-radius", .distance(1_000...500_000_000), default: "50000", example: "5000",
              "Largest circle radius in metres; at least `min-radius`.") {
        $0.fences.settings.maximumRadiusMetres = Double($1.number) / 1000
    },
    ConfigKey("agree", .count(1...32), default: "3", example: "4",
              "Fixes that must agree, among the last `window`, before a fence changes state.") {
        $0.fences.settings.agreeingFixes = Int($1.number)
    },
    ConfigKey("window", .count(1...32), default: "5", example: "6",
              "Recent filtered fixes the vote looks at; at least `agree`.") {
        $0.fences.settings.windowFixes = Int($1.number)
    },
    ConfigKey("hysteresis", .distance(0...1_000_000), default: "20", example: "30",
              """
              Metres beyond the edge, on top of a fix's accuracy, that a fix must be to vote for \
              leaving the state a fence is in.
              """) { $0.fences.settings.hysteresisMetres = Double($1.number) / 1000 },
    ConfigKey("max-commands", .count(0...64), default: "4", example: "2",
              "Most fence event commands running at once; the commands of further events are skipped and counted.") {
        $0.fences.maxCommands = Int($1.number)
    },
])

private let gpsdSection = ConfigSection("gpsd", """
    gpsd's JSON protocol on TCP, so gpspipe, cgps, gpxlogger, python's gps module and programs \
    built on libgps share the receiver. What leaves follows the permission, as every output does.
    """, [
    ConfigKey("listen", .listenAddresses(maxCount: TrackdConfig.Gpsd.maxListeners), default: "127.0.0.1:2947, [::1]:2947",
              example: "127.0.0.1:2947",
              """
              Addresses to listen on, comma-separated (`IPv4:port`, `[IPv6]:port`); empty turns \
              the service off. Loopback only unless another address is named here. An address \
              that cannot be bound (a gpsd already running) is reported and skipped.
              """) { config, value in
        config.gpsd.listen = parseListenAddresses(value.text) ?? []
    },
    ConfigKey("max-clients", .count(1...Int64(TrackdConfig.Gpsd.clientLimit)), default: "8", example: "4",
              "Most gpsd clients connected at once; further connections are closed at once.") {
        $0.gpsd.maxClients = Int($1.number)
    },
])
