// The keys of [time]: the receiver's time for chrony, through the NTP shared-memory refclock.

let timeSection = ConfigSection("time", """
    The receiver's time for chrony or ntpd (a Raspberry Pi has no real-time clock): once per \
    epoch with a good fix (2D or 3D, accepted by the filter), trackd writes the receiver's UTC \
    time and the system clock at the moment the epoch's first byte arrived to a unit of the \
    NTP shared-memory refclock, as gpsd does (`refclock SHM 0` in chrony.conf; \
    board/chrony/trackd.conf). Without PPS this is good to tens of milliseconds, the time a \
    receiver takes to send its first sentence. A unit that cannot be attached is said once \
    (journal, status, doctor); trackd tracks on.
    """, [
    ConfigKey("shm", .choice(["auto", "off", "0", "1", "2", "3"]), default: "auto", example: "2",
              """
              The unit (System V key 0x4E545030 + unit): `auto` is 0 when trackd runs as root, \
              else 2; units 0 and 1 are created readable by root only (0600), 2 and 3 by \
              everyone (0666). `off`: no time is shared. SIGHUP attaches a changed unit.
              """) { config, value in
        switch value.number {
        case 0: config.time.shm = .auto
        case 1: config.time.shm = .off
        default: config.time.shm = .unit(Int(value.number) - 2)
        }
    },
    ConfigKey("precision", .count(-30...0), default: "-1", example: "-4",
              """
              The precision stated with each sample, as log2 of seconds (-1 ≈ 0.5 s, gpsd's \
              value for NMEA time; -20 ≈ 1 µs). ntpd reads it; chrony takes its own \
              `precision` option instead.
              """) { $0.time.precisionLog2Seconds = Int32($1.number) },
])
