import TrackCore
import TrackIO

/// `trackctl decode [FILE]`: NMEA in, one JSON object per fix out (gpsd's TPV names).
enum DecodeCommand {
    static func run(_ arguments: [String]) -> Int32 {
        try? FileDescriptor.standardError.writeAll("trackctl decode: not built yet\n")
        return 1
    }
}
