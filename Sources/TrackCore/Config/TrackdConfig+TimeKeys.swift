// The keys of [time]: the receiver's time for chrony (docs/time.md). The texts are short: they
// are in the firmware.

let timeSection = ConfigSection("time", """
    The receiver's time for chrony through the NTP shared-memory refclock, as gpsd writes it \
    (docs/time.md): once per epoch with a good fix, good to tens of milliseconds without PPS.
    """, [
    ConfigKey("shm", .choice(["auto", "off", "0", "1", "2", "3"]), default: "auto", example: "2",
              "The unit (key 0x4E545030 + unit): `auto` is 0 as root, else 2; `off`: none.") { config, value in
        switch value.number {
        case 0: config.time.shm = .auto
        case 1: config.time.shm = .off
        default: config.time.shm = .unit(Int(value.number) - 2)
        }
    },
    ConfigKey("precision", .count(-30...0), default: "-1", example: "-4",
              "Log2 of seconds stated with each sample (ntpd reads it, chrony does not).") {
        $0.time.precisionLog2Seconds = Int32($1.number)
    },
])
