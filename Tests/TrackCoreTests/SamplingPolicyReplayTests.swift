import Foundation
@testable import TrackCore
import TestData
import Testing

/// One profile's policy over one track, checking each decision against the settings as it goes.
struct ProfileReplay {
    var profile: SamplingProfile
    var settings: SamplingSettings
    var policy: SamplingPolicy
    var last: Fix?
    var records = 0
    var problems: [String] = []

    init(_ profile: SamplingProfile) {
        self.profile = profile
        settings = profile.settings
        policy = SamplingPolicy(settings: settings)
    }

    mutating func offer(_ fix: Fix, accuracyMillimetres: Int64, now: MonotonicTime) {
        let trigger = policy.consider(fix, accuracyMillimetres: accuracyMillimetres, now: now)
        let eligible = accuracyMillimetres <= settings.accuracyLimitMillimetres
        if trigger != nil && !eligible { problems.append("recorded a fix above the accuracy limit") }
        defer {
            if trigger != nil {
                records += 1
                last = fix
            }
        }
        guard let last else {
            if eligible && trigger != .first { problems.append("first eligible fix recorded as \(String(describing: trigger))") }
            return
        }
        let at = fix.time!.millisecondsSinceEpoch
        let elapsed = at - last.time!.millisecondsSinceEpoch
        let metres = geodesicDistanceAndBearing(last.position!, fix.position!).metres
        if let trigger {
            if !satisfies(trigger, fix, last: last, elapsed: elapsed, metres: metres) {
                problems.append("\(at): claims \(trigger) but it does not hold")
            }
            // The period bound: closer than minPeriod only when a movement trigger fired.
            if elapsed < settings.minPeriodMilliseconds, ![.distance, .heading, .speed].contains(trigger) {
                problems.append("\(at): \(trigger) only \(elapsed) ms after the last record")
            }
        } else if eligible {
            // The heartbeat bound, and no missed distance, while fixes flow.
            if settings.heartbeatMilliseconds > 0, elapsed >= settings.heartbeatMilliseconds {
                problems.append("\(at): skipped \(elapsed) ms after the last record (heartbeat missed)")
            }
            if settings.minDistanceMillimetres > 0, metres * 1000 >= Double(settings.minDistanceMillimetres) {
                problems.append("\(at): skipped \(metres) m from the last record (distance missed)")
            }
        }
    }

    func isMoving(_ fix: Fix) -> Bool {
        fix.speedMillimetresPerSecond.map { $0 >= settings.movingSpeedMillimetresPerSecond } ?? true
    }

    func satisfies(_ trigger: RecordTrigger, _ fix: Fix, last: Fix, elapsed: Int64, metres: Double) -> Bool {
        switch trigger {
        case .first:
            return elapsed < 0
        case .distance:
            return settings.minDistanceMillimetres > 0 && metres * 1000 >= Double(settings.minDistanceMillimetres)
        case .heading:
            guard settings.minHeadingChangeMillidegrees > 0, isMoving(fix), isMoving(last),
                  let from = last.courseMillidegrees, let to = fix.courseMillidegrees else { return false }
            let turn = abs(Int(to) - Int(from)) % 360_000
            return min(turn, 360_000 - turn) >= Int(settings.minHeadingChangeMillidegrees)
        case .speed:
            guard settings.minSpeedChangeMillimetresPerSecond > 0, let from = last.speedMillimetresPerSecond,
                  let to = fix.speedMillimetresPerSecond else { return false }
            return abs(Int(to) - Int(from)) >= Int(settings.minSpeedChangeMillimetresPerSecond)
        case .period:
            return settings.minPeriodMilliseconds > 0 && elapsed >= settings.minPeriodMilliseconds && isMoving(fix)
        case .heartbeat:
            return settings.heartbeatMilliseconds > 0 && elapsed >= settings.heartbeatMilliseconds
        }
    }
}

@Suite struct SamplingPolicyReplayTests {
    @Test(.needsShared("tracks/csv"))
    func realTracksThroughFilterAndEachProfile() throws {
        let tracks = try SharedTracks.load()
        #expect(!tracks.isEmpty)
        var summary = [row("track", "points", "accepted", "stale", "jump", "checkin", "track", "arrival")]
        var totals = [Int](repeating: 0, count: 7)
        for (name, fixes) in tracks {
            var filter = FixFilter()
            var replays = SamplingProfile.allCases.map(ProfileReplay.init)
            let start = fixes.first?.time?.millisecondsSinceEpoch ?? 0
            for fix in fixes {
                let now = MonotonicTime.milliseconds(fix.time!.millisecondsSinceEpoch - start + 1_000)
                guard case .accepted(let accuracy) = filter.evaluate(fix, now: now) else { continue }
                for index in replays.indices { replays[index].offer(fix, accuracyMillimetres: accuracy, now: now) }
            }
            let (checkin, track, arrival) = (replays[0].records, replays[1].records, replays[2].records)
            #expect(checkin < track && checkin < arrival, "\(name): checkin \(checkin), track \(track), arrival \(arrival)")
            #expect(track <= fixes.count && arrival <= fixes.count, "\(name): more records than points")
            for replay in replays {
                #expect(replay.problems.isEmpty,
                        "\(name) \(replay.profile): \(replay.problems.count) problems, e.g. \(replay.problems.prefix(3))")
                #expect(replay.policy.counters.recorded == replay.records)
            }
            // Real recordings are mostly good fixes: the filter must not throw the track away.
            #expect(filter.counters.accepted * 10 >= fixes.count * 9,
                    "\(name): accepted \(filter.counters.accepted) of \(fixes.count)")
            let counts = [fixes.count, filter.counters.accepted, filter.counters.stale,
                          filter.counters.implausibleJump, checkin, track, arrival]
            for index in counts.indices { totals[index] += counts[index] }
            summary.append(row(name, counts))
        }
        summary.append(row("all", totals))
        print("Replay of the shared tracks through FixFilter() and each profile:\n" + summary.joined(separator: "\n"))
    }

    private func row(_ name: String, _ counts: [Int]) -> String {
        row(name, counts.map(String.init))
    }

    private func row(_ name: String, _ columns: String...) -> String {
        row(name, columns)
    }

    private func row(_ name: String, _ columns: [String]) -> String {
        name.padding(toLength: 20, withPad: " ", startingAt: 0)
            + columns.map { String(repeating: " ", count: max(0, 9 - $0.count)) + $0 }.joined()
    }
}
