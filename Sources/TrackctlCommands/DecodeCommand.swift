import TrackCore
import TrackIO

/// `trackctl decode [FILE]`: the counterpart of gpsd's gpsdecode. Reads NMEA from FILE or
/// standard input and prints what trackd's gpsd service sends its watchers for each epoch: the
/// TPV, then the SKYs (`GpsdJSON`), each object on a line ending in CRLF as gpsd sends it, with
/// `FILE` (or `-`) as the device; the counters go to standard error at the end. The bytes are
/// those a `gpspipe -w` client of trackd receives for the same capture (the device aside):
/// scripts/conformance checks it.
enum DecodeCommand {
    static func run(_ arguments: [String]) -> Int32 {
        var path: String?
        for argument in arguments {
            if argument == "-h" || argument == "--help" {
                try? FileDescriptor.standardOutput.writeAll("usage: trackctl decode [FILE]\n")
                return 0
            }
            guard path == nil, !argument.hasPrefix("-") || argument == "-" else {
                try? FileDescriptor.standardError.writeAll("trackctl decode: unexpected argument '\(argument)'\n")
                return 2
            }
            path = argument
        }
        let input: FileDescriptor
        if let path, path != "-" {
            do {
                input = try FileDescriptor.openForReading(path)
            } catch {
                try? FileDescriptor.standardError.writeAll("trackctl decode: cannot open \(path): \(error.message)\n")
                return 1
            }
        } else {
            input = .standardInput
        }
        do throws(Errno) {
            let counters = try decode(from: input, device: GpsdDevicePath(path ?? "-"))
            var line = TextBuffer()
            line.append("trackctl decode: ")
            counters.write(to: &line)
            line.append(UInt8(ascii: "\n"))
            try line.withBytes { (bytes) throws(Errno) in
                try bytes.withUnsafeBytes { (raw) throws(Errno) in try FileDescriptor.standardError.writeAll(raw) }
            }
        } catch {
            try? FileDescriptor.standardError.writeAll("trackctl decode: \(path ?? "standard input"): \(error.message)\n")
            return 1
        }
        return 0
    }

    /// Streams `input` through the receiver pipeline to standard output as gpsd's TPV and SKY
    /// objects, each epoch's as the gpsd service publishes them (a TPV, then its SKYs, each
    /// written into its own buffer); returns the counters.
    static func decode(from input: FileDescriptor, device: GpsdDevicePath) throws(Errno) -> NMEACounters {
        var receiver = NMEAReceiver()
        var output = BufferedOutput(.standardOutput)
        var line = TextBuffer()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { chunk.deallocate() }
        func emit(_ fix: borrowing Fix, _ sky: borrowing SkyView) throws(Errno) {
            line.removeAll()
            GpsdJSON.writeTPV(fix, device: device, to: &line)
            try line.withBytes { (bytes) throws(Errno) in try output.write(bytes) }
            try GpsdJSON.writeSKY(fix, sky: sky, positions: true, device: device, through: &line) { (object) throws(Errno) in
                try object.withBytes { (bytes) throws(Errno) in try output.write(bytes) }
            }
        }
        while true {
            let count = try input.read(into: chunk)
            if count == 0 { break }
            let bytes = UnsafeRawBufferPointer(rebasing: chunk[0..<count])
            var offset = 0
            while let fix = receiver.next(bytes, from: &offset) { try emit(fix, receiver.assembler.sky) }
        }
        if let fix = receiver.finish() { try emit(fix, receiver.assembler.sky) }
        try output.flush()
        return receiver.counters
    }
}
