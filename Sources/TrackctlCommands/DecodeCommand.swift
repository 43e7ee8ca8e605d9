import TrackCore
import TrackIO

/// `trackctl decode [--gpsd] [FILE]`: the counterpart of gpsd's gpsdecode. Reads NMEA from
/// FILE or standard input, prints one JSON object per fix (gpsd's TPV names) and the counters
/// on standard error at the end. `--gpsd` prints instead what trackd's gpsd service sends its
/// watchers for each epoch (TPV and SKY, precise, device `FILE`), e.g. for comparing with
/// gpsd's own output.
enum DecodeCommand {
    static func run(_ arguments: [String]) -> Int32 {
        var path: String?
        var gpsd = false
        for argument in arguments {
            if argument == "-h" || argument == "--help" {
                try? FileDescriptor.standardOutput.writeAll("usage: trackctl decode [--gpsd] [FILE]\n")
                return 0
            }
            if argument == "--gpsd" {
                gpsd = true
                continue
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
            let counters = try gpsd
                ? decodeAsGpsd(from: input, device: GpsdDevicePath(path ?? "-")) : decode(from: input)
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

    /// Streams `input` through the receiver pipeline to standard output; returns the counters.
    static func decode(from input: FileDescriptor) throws(Errno) -> NMEACounters {
        var receiver = NMEAReceiver()
        var output = BufferedOutput(.standardOutput)
        var line = TextBuffer()
        var failure: Errno?
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { chunk.deallocate() }
        func emit(_ fix: borrowing Fix) {
            line.removeAll()
            fix.writeJSON(to: &line)
            line.append(UInt8(ascii: "\n"))
            do throws(Errno) {
                try line.withBytes { (bytes) throws(Errno) in try output.write(bytes) }
            } catch {
                failure = error
            }
        }
        while true {
            let count = try input.read(into: chunk)
            if count == 0 { break }
            receiver.consume(UnsafeRawBufferPointer(rebasing: chunk[0..<count]), emit)
            if let failure { throw failure }
        }
        receiver.finish(emit)
        if let failure { throw failure }
        try output.flush()
        return receiver.counters
    }

    /// Streams `input` through the receiver pipeline to standard output as gpsd's TPV and SKY
    /// objects, one pair per epoch; returns the counters.
    static func decodeAsGpsd(from input: FileDescriptor, device: GpsdDevicePath) throws(Errno) -> NMEACounters {
        var receiver = NMEAReceiver()
        var output = BufferedOutput(.standardOutput)
        var line = TextBuffer()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)
        defer { chunk.deallocate() }
        func emit(_ fix: borrowing Fix, _ sky: borrowing SkyView) throws(Errno) {
            line.removeAll()
            GpsdJSON.writeTPV(fix, device: device, to: &line)
            GpsdJSON.writeSKY(fix, sky: sky, positions: true, device: device, to: &line)
            try line.withBytes { (bytes) throws(Errno) in try output.write(bytes) }
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
