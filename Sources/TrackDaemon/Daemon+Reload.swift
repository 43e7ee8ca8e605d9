import TrackCore
import TrackIO

extension Daemon where Source: ~Copyable {
    /// SIGHUP: the configuration, the board file and the fences file read again. If any is
    /// invalid nothing changes and the reason is kept for status and doctor. Otherwise each
    /// service applies its part of the plan (`ReloadPlan`): filter, sampling, fences, LED
    /// patterns and button timing at once; the receiver's device, baud and backoff by
    /// reopening the port; `[log]` by closing the log (after a last sync) and opening it anew;
    /// the socket's group; `[privacy] restricted` at once; `[places]` by mapping the table
    /// again. What cannot change while trackd runs is named, key by key, as needing a restart.
    mutating func reload(now: MonotonicTime) {
        guard let plan = process.planReload(logSettings: trackLog.openSettings) else { return }
        fixes.apply(plan.config)
        state.apply(plan)
        fences.apply(plan)
        board.apply(plan)
        receiver.apply(plan, now: now)
        trackLog.apply(plan, &loop, timer: TimerID.logSync, now: now)
        control?.apply(plan)
        places.apply(plan)
        time.apply(plan)
        process.reloaded(plan)
    }
}
