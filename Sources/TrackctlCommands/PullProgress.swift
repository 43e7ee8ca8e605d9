import TrackIO

/// `trackctl pull`'s progress on a terminal's standard error (`ProgressLines`): a line per host,
/// updated in place as it goes, e.g.
///
///     bike-1: done: 48,211 bytes, 1,200 fixes, 0.4 s
///     boat: receiving 1.2 MB, 3.1 s
///     van: waiting
///
/// With more hosts than the terminal has rows for, the hosts being pulled and one line counting
/// the others. Standard output keeps its plain lines (a line per host as it starts and ends,
/// the summary), which `say` writes above the progress.
struct PullProgress {
    private var lines = ProgressLines()
    private let hosts: [String]
    /// What each host's line says after its name.
    private var states: [String]
    /// The hosts being pulled now.
    private var running: Set<Int> = []

    /// How often the lines are redrawn while no host sends anything: 200 ms, on a terminal;
    /// nil (wait for the hosts) otherwise.
    var tickNanoseconds: Int64? { lines.isShown ? 200_000_000 : nil }

    /// Progress for `hosts`, each waiting.
    init(hosts: [String]) {
        self.hosts = hosts
        states = Array(repeating: "waiting", count: hosts.count)
    }

    /// Host `slot` (its place in the arguments) is being pulled.
    mutating func started(_ slot: Int) {
        running.insert(slot)
        states[slot] = "connecting"
        draw(force: true)
    }

    /// Host `slot` sent `byteCount` bytes so far, `seconds` (e.g. "3.1 s") since it started.
    mutating func receiving(_ slot: Int, byteCount: Int, seconds: @autoclosure () -> String) {
        guard lines.isDue() else { return }
        states[slot] = "receiving " + Self.size(byteCount) + ", " + seconds()
        draw(force: true)
    }

    /// Host `slot` is pruning the tracker after `transfer`.
    mutating func pruning(_ slot: Int, bytes byteCount: Int, fixes: Int) {
        states[slot] = Self.size(byteCount) + ", " + ProgressLines.grouped(fixes) + " fixes; pruning the tracker"
        draw(force: true)
    }

    /// Host `slot` ended with `outcome`, e.g. "4811 bytes, 1200 fixes, …, 0.4 s" or "FAILED: …":
    /// its line on standard output, and its progress line says "done: " and it, or the failure.
    mutating func ended(_ slot: Int, _ outcome: String) {
        running.remove(slot)
        states[slot] = outcome.hasPrefix("FAILED") ? outcome : "done: " + outcome
        // Drawn first, so the lines `say` draws again below its line are the new ones.
        draw(force: true)
        say(hosts[slot] + ": " + outcome)
    }

    /// A line on standard output, with the progress out of its way.
    mutating func say(_ line: String) {
        lines.say(line)
    }

    /// Takes the progress off the screen (the summary follows on standard output).
    mutating func clear() {
        lines.clear()
    }

    private mutating func draw(force: Bool) {
        guard lines.isShown else { return }
        let rows = (TerminalSize.of(.standardError)?.rows ?? 24) - 1
        if hosts.count <= rows {
            lines.show(hosts.indices.map { hosts[$0] + ": " + states[$0] }, force: force)
            return
        }
        let shown = running.sorted().prefix(max(rows - 1, 0))
        let ended = states.indices.filter { !running.contains($0) && states[$0] != "waiting" }
        let failed = ended.filter { states[$0].hasPrefix("FAILED") }.count
        let waiting = hosts.count - running.count - ended.count
        lines.show(shown.map { hosts[$0] + ": " + states[$0] }
                   + ["pull: " + String(ended.count - failed) + " done, " + String(failed) + " failed, "
                      + String(waiting) + " waiting of " + String(hosts.count) + " hosts"], force: force)
    }

    /// E.g. "812 bytes", "48.2 KB", "1.2 MB".
    static func size(_ byteCount: Int) -> String {
        if byteCount < 10_000 { return ProgressLines.grouped(byteCount) + " bytes" }
        let tenths = (byteCount + 50) / 100
        if tenths < 10_000 { return String(tenths / 10) + "." + String(tenths % 10) + " KB" }
        return ProgressLines.megabytes(byteCount)
    }
}
