import TrackCore
import TrackIO

// Benchmark driver for scripts/bench; filled in with the NMEA pipeline.
exitProcess(0)
