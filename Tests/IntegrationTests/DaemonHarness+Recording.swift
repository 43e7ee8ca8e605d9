import Foundation

extension DaemonHarness {
    /// A started trackd, allowed to log, fed the shared capture `name` until it recorded a fix:
    /// the harness and the status that showed it (nil when no fix was recorded in time). The
    /// caller is `.needsShared("gpsd-regress")`.
    static func recording(_ name: String) throws -> (harness: DaemonHarness, status: [String: Any]?) {
        let bytes = try capture(name)
        let harness = try DaemonHarness()
        try harness.start()
        guard try harness.trackctl(["privacy", "allow", "always"]).status == 0 else { return (harness, nil) }
        harness.feed(bytes)
        let status = try harness.waitForStatus { json in
            ((json["sampling"] as? [String: Any])?["recorded"] as? Int ?? 0) > 0
        }
        return (harness, status)
    }
}
