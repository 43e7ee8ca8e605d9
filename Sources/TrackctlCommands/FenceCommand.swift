import TrackCore
import TrackIO

/// `trackctl fence validate|compile|check|list`: check a fences file, compile it into the image
/// trackd maps, test one position against it, or ask the running trackd for every fence's state.
enum FenceCommand {
    static let usage: StaticString = """
        usage: trackctl fence validate [--config FILE] FENCES.geojson
               trackctl fence compile [--config FILE] FENCES.geojson IMAGE
               trackctl fence check [--config FILE] [--fences FILE] LAT LON [ACCURACY_M]
               trackctl fence list [--socket PATH]

        validate  read a fences file as trackd would; the first problem names the feature
        compile   validate, then write the compiled image trackd maps (written atomically;
                  trackd runs this itself when its image is missing or older than the file);
                  exit 1 for a bad fences file, 3 when the image cannot be written
        check     one line per fence, "ID inside|outside|unknown", for one fix (no window,
                  no hysteresis): unknown when the ACCURACY_M circle (default 0) straddles the edge
        list      the running trackd's fences: state and since when

        --config FILE  take the radius range (and check's default fences file) from this
                       configuration (default /etc/trackd/trackd.conf when it exists)

        """

    static func run(_ arguments: [String]) -> Int32 {
        var context = CommandContext.standard
        return run(arguments, &context)
    }

    /// The verb on `context` (`check` writes its lines to the process's standard output).
    static func run(_ arguments: [String], _ context: inout CommandContext) -> Int32 {
        guard let subcommand = arguments.first else {
            context.say(usage)
            return 2
        }
        let rest = Array(arguments.dropFirst())
        // The compiler's arrays grow by doubling: with mappings of their own, each old copy
        // goes back to the kernel when it is freed instead of staying resident in the heap.
        ProcessMemory.mapLargeAllocations()
        switch subcommand {
        case "validate": return validate(rest, &context)
        case "compile": return compile(rest, &context)
        case "check": return check(rest, &context)
        case "list": return ClientCommands.fenceList(rest)
        case "-h", "--help", "help":
            try? context.write(usage)
            return 0
        default:
            return fail("unknown subcommand '\(subcommand)'", usage: true, &context)
        }
    }

    static func fail(_ message: String, usage showUsage: Bool = false, _ context: inout CommandContext) -> Int32 {
        context.say("trackctl fence: " + message + "\n")
        if showUsage { context.say(usage) }
        return showUsage ? 2 : 1
    }

    /// Options and positional arguments: `--config` and `--fences` take a value.
    static func options(_ arguments: [String]) -> (config: String?, fences: String?, positional: [String])? {
        var config: String?
        var fences: String?
        var positional: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--config" || argument == "--fences" {
                guard index + 1 < arguments.count else { return nil }
                if argument == "--config" { config = arguments[index + 1] } else { fences = arguments[index + 1] }
                index += 2
                continue
            }
            // A negative coordinate is a value, not an option.
            if argument.hasPrefix("--") { return nil }
            positional.append(argument)
            index += 1
        }
        return (config, fences, positional)
    }

    /// The configuration named, or the default one when present, or the defaults.
    static func configuration(_ path: String?, _ context: inout CommandContext) -> TrackdConfig? {
        switch ConfigFiles.load(path ?? ConfigFiles.defaultPath, explicit: path != nil) {
        case .success(let config): return config
        case .failure(let error):
            _ = fail(error.description, &context)
            return nil
        }
    }

    /// The fences at `path`, or nil after saying why not: read streaming, compiled on the heap
    /// (`fence check`).
    static func load(_ path: String, settings: FenceSettings, _ context: inout CommandContext) -> FenceSet? {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.openForReading(path)
        } catch {
            _ = fail(path + ": " + error.message, &context)
            return nil
        }
        defer { try? file.close() }
        var source = FileByteSource(file)
        let fences: FenceSet
        do {
            fences = try FenceFile.parse(from: &source, settings: settings)
        } catch {
            // A read error cuts the text short: that, not what the reader made of it.
            _ = fail(path + ": " + (source.failure?.message ?? error.description), &context)
            return nil
        }
        if let failure = source.failure {
            _ = fail(path + ": " + failure.message, &context)
            return nil
        }
        return fences
    }

    static func validate(_ arguments: [String], _ context: inout CommandContext) -> Int32 {
        guard let parsed = options(arguments), parsed.fences == nil, parsed.positional.count == 1 else {
            return fail("validate takes one fences file", usage: true, &context)
        }
        guard let config = configuration(parsed.config, &context) else { return 1 }
        let path = parsed.positional[0]
        let summary: FenceCompileSummary
        do {
            summary = try FenceImageFile.compile(path, to: nil, settings: config.fences.settings)
        } catch {
            return fail(error.message, &context)
        }
        try? context.write(
            "\(path): \(summary.fences) fences (\(summary.circles) circles, \(summary.fences - summary.circles) polygons with "
                + "\(summary.rings) rings and \(summary.vertices) vertices)\n")
        return 0
    }

    /// Compiles streaming (`FenceImageFile.compile`): the memory of the feature being read and
    /// the strings and index entries, not of the document or the image. A terminal on standard
    /// error sees what is being done.
    static func compile(_ arguments: [String], _ context: inout CommandContext) -> Int32 {
        guard let parsed = options(arguments), parsed.fences == nil, parsed.positional.count == 2 else {
            return fail("compile takes a fences file and the image to write", usage: true, &context)
        }
        guard let config = configuration(parsed.config, &context) else { return 1 }
        let (path, image) = (parsed.positional[0], parsed.positional[1])
        var progress = CompileProgress(path: path, image: image)
        let summary: FenceCompileSummary
        do {
            summary = try FenceImageFile.compile(path, to: image, settings: config.fences.settings, observer: &progress)
        } catch {
            progress.lines.clear()
            _ = fail(error.message, &context)
            if case .cannotSave = error { return FenceImageFile.cannotSave }
            return 1
        }
        progress.lines.clear()
        try? context.write("\(image): \(summary.fences) fences, \(summary.bytes ?? 0) bytes\n")
        return 0
    }

    static func check(_ arguments: [String], _ context: inout CommandContext) -> Int32 {
        guard let parsed = options(arguments), (2...3).contains(parsed.positional.count) else {
            return fail("check takes LAT LON [ACCURACY_M]", usage: true, &context)
        }
        let position: Coordinate
        do {
            position = try Coordinate(parsing: parsed.positional[0] + "," + parsed.positional[1])
        } catch {
            return fail("'\(parsed.positional[0]) \(parsed.positional[1])' is not a latitude and longitude", &context)
        }
        var accuracyMetres = 0.0
        if parsed.positional.count == 3 {
            guard let value = metres(parsed.positional[2]) else {
                return fail("'\(parsed.positional[2])' is not an accuracy in metres (0 or more)", &context)
            }
            accuracyMetres = value
        }
        guard let config = configuration(parsed.config, &context) else { return 1 }
        guard let fences = load(parsed.fences ?? config.fences.file, settings: config.fences.settings, &context) else { return 1 }
        // Straight to standard output, buffered: one line per fence, thousands of them.
        var output = BufferedOutput(.standardOutput)
        var line = TextBuffer()
        fences.states(at: position, accuracyMetres: accuracyMetres) { index, state in
            line.removeAll()
            line.append(string: fences.fences[index].id)
            line.append(UInt8(ascii: " "))
            line.append(state.name)
            line.append(UInt8(ascii: "\n"))
            try? line.withBytes { (bytes) throws(Errno) in try output.write(bytes) }
        }
        try? output.flush()
        return 0
    }

    /// A non-negative decimal number of metres, e.g. `12.5`; nil otherwise.
    static func metres(_ text: String) -> Double? {
        guard let document = try? JSONDocument.parse(text), document.nodes[0].kind == .number else { return nil }
        let number = document.nodes[0].number
        let value = number.double
        guard !number.negative || number.significand == 0, value.isFinite else { return nil }
        return value
    }
}
