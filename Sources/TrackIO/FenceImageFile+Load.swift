import CLinux
import TrackCore

/// How the daemon gets its fences: the image mapped when it was compiled from the fences file
/// as it is now, else compiled first by `trackctl fence compile` in a process of its own (the
/// daemon holds no GeoJSON parser, and no parse of a large file ever touches its memory).
extension FenceImageFile {
    /// The fences `config` names, from `image`, compiled by `compiler` (argv before the fences
    /// file and the image, e.g. `["/usr/bin/trackctl", "fence", "compile"]`) when stale: an
    /// empty set when the fences file does not exist; the compiler's first problem (naming the
    /// file and feature) when it cannot be used. The note says which way it went, e.g.
    /// `3 fences compiled to /var/lib/trackd/fences.image`.
    public static func load(_ config: TrackdConfig, image: String, compiler: [String])
        -> Result<ConfigFiles.FenceLoad, ConfigFiles.FenceLoadError> {
        let path = config.fences.file
        let settings = config.fences.settings
        let key: UInt64
        do {
            key = try sourceKey(path, settings: settings)
        } catch {
            if error == .noSuchFile { return .success(ConfigFiles.FenceLoad(monitor: FenceMonitor(fences: FenceSet(), settings: settings))) }
            return .failure(ConfigFiles.FenceLoadError(description: path + ": " + error.message))
        }
        var old: String?
        do throws(FenceImageFileError) {
            let mapped = try open(image)
            if mapped.key == key { return .success(loaded(mapped, settings, "from " + image)) }
            old = "compiled from another fences file"
        } catch {
            if error != .unreadable(.noSuchFile) { old = error.description }
        }
        var target = image
        var elsewhere = false
        var compiled = run(compiler + [path, image])
        if compiled.code == FenceImageFile.cannotSave {
            // The state's directory takes no image (read-only, full): the runtime directory
            // (a tmpfs, so its pages are memory, but the fences still work).
            let fallback = FenceImageFile.path(besideState: config.control.socket)
            old = compiled.problem
            target = fallback
            elsewhere = true
            compiled = run(compiler + [path, fallback])
        }
        if let problem = compiled.problem { return .failure(ConfigFiles.FenceLoadError(description: problem)) }
        do throws(FenceImageFileError) {
            let mapped = try open(target)
            guard mapped.key == key else {
                return .failure(ConfigFiles.FenceLoadError(description: target + ": not compiled from " + path + " as it is now"))
            }
            let why = elsewhere ? "" : "the old one: "
            return .success(loaded(mapped, settings, "compiled to " + target + (old.map { " (" + why + $0 + ")" } ?? "")))
        } catch {
            return .failure(ConfigFiles.FenceLoadError(description: target + ": " + error.description))
        }
    }

    static func loaded(_ image: FenceImage, _ settings: FenceSettings, _ how: String) -> ConfigFiles.FenceLoad {
        let set = FenceSet(image: image)
        // The monitor reserves its arrays for every fence and touches them only as fixes come
        // near fences: memory freed by the start so far goes back first, so the reservation
        // does not land on pages that are already resident.
        ProcessMemory.releaseFree()
        return ConfigFiles.FenceLoad(monitor: FenceMonitor(fences: set, settings: settings), note: String(set.count) + " fences " + how)
    }

    /// The image key of the file at `path` (read 64 KiB at a time) with `settings`.
    static func sourceKey(_ path: String, settings: FenceSettings) throws(Errno) -> UInt64 {
        let file = try FileDescriptor.openForReading(path)
        defer { try? file.close() }
        var key = FenceImage.Key()
        var failure: Errno?
        withUnsafeTemporaryAllocation(byteCount: 65_536, alignment: 16) { buffer in
            while true {
                let count: Int
                do throws(Errno) { count = try file.read(into: buffer) } catch {
                    failure = error
                    return
                }
                if count == 0 { return }
                key.add(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            }
        }
        if let failure { throw failure }
        return key.value(settings: settings)
    }

    /// The exit code of `trackctl fence compile` when the fences are good but the image could
    /// not be written.
    public static var cannotSave: Int32 { 3 }

    /// Runs `argv` to its end: its exit code; `problem` nil when it is 0, else the first line
    /// of what it wrote to standard error without the program's own `trackctl fence: ` prefix;
    /// `output` the first line of its standard output.
    public static func run(_ argv: [String]) -> (code: Int32, problem: String?, output: String) {
        let child: ChildProcess
        do {
            child = try ChildProcess(argv)
        } catch {
            return (-1, "cannot run " + argv[0] + ": " + error.message, "")
        }
        var texts: [[UInt8]] = []
        for descriptor in [child.errors, child.output] {
            var text: [UInt8] = []
            withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 16) { buffer in
                while let count = try? descriptor.read(into: buffer), count > 0 {
                    if text.count < 4096 { text.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
                }
            }
            try? descriptor.close()
            texts.append(text.split(separator: UInt8(ascii: "\n")).first.map { Array($0) } ?? [])
        }
        let code = child.wait()
        let output = String(decoding: texts[1], as: UTF8.self)
        guard code != 0 else { return (0, nil, output) }
        var line = texts[0]
        let prefix = Array("trackctl fence: ".utf8)
        if line.starts(with: prefix) { line.removeFirst(prefix.count) }
        return (code, line.isEmpty ? argv[0] + " exited with " + String(code) : String(decoding: line, as: UTF8.self), output)
    }

    /// `trackctl` beside this program (`/usr/bin/trackd` → `/usr/bin/trackctl`), or `trackctl`
    /// from PATH when the kernel cannot say where this program is.
    public static func compilerPath() -> String {
        let program: String? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
            guard let base = buffer.baseAddress else { return nil }
            let count = readlink("/proc/self/exe", base, buffer.count)
            guard count > 0 else { return nil }
            return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
        }
        guard let program else { return "trackctl" }
        let bytes = Array(program.utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "trackctl" }
        return String(decoding: bytes[...slash], as: UTF8.self) + "trackctl"
    }
}
