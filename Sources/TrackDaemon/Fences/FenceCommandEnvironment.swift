import TrackCore

/// The environment a fence's command runs with: the event's details and a fixed PATH, nothing
/// inherited from trackd, e.g. `TRACKD_FENCE_ID=home`, `TRACKD_EVENT=enter`,
/// `TRACKD_LAT=48.524237000`, `TRACKD_LON=9.066349000`, `TRACKD_ACCURACY_M=7.5`,
/// `TRACKD_TIME=2026-11-30T16:04:27.000Z`, `TRACKD_TIME_MS=1796054667000`.
enum FenceCommandEnvironment {
    /// `NAME=value` strings for `event` of `fence` (built per event, not per fix).
    static func variables(_ fence: Fence, _ event: FenceEventRecord) -> [String] {
        var result = [
            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "TRACKD_FENCE_ID=" + fence.id,
            "TRACKD_FENCE_INDEX=" + String(event.fence),
            "TRACKD_EVENT=" + text { $0.append(event.transition.name) },
            "TRACKD_LAT=" + text { $0.appendFixed(event.position.latitudeNanodegrees, decimals: 9) },
            "TRACKD_LON=" + text { $0.appendFixed(event.position.longitudeNanodegrees, decimals: 9) },
            "TRACKD_ACCURACY_M=" + text { $0.appendFixed((event.accuracyMillimetres + 50) / 100, decimals: 1) },
            "TRACKD_TIME=" + text { event.time.write(to: &$0) },
            "TRACKD_TIME_MS=" + String(event.time.millisecondsSinceEpoch),
        ]
        if let name = fence.name { result.append("TRACKD_FENCE_NAME=" + name) }
        return result
    }

    static func text(_ build: (inout TextBuffer) -> Void) -> String {
        var buffer = TextBuffer()
        build(&buffer)
        return buffer.string
    }
}
