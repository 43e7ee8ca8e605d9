import Testing
import TrackCore

private let t0 = MonotonicTime.seconds(1_000)

private func after(_ milliseconds: Int64) -> MonotonicTime {
    t0.adding(milliseconds: milliseconds)
}

struct PermissionTransitionCase: Sendable, CustomTestStringConvertible {
    var start: Permission
    var request: PermissionRequest
    var expected: Permission
    var testDescription: String { "\(start.state) \(start.accuracy) + \(request)" }
}

private let approximateAlways = Permission(state: .always, accuracy: .approximate)

@Suite struct PermissionTransitionTests {
    static let acceptedCases: [PermissionTransitionCase] = [
        .init(start: Permission(), request: .allowAlways, expected: Permission(state: .always)),
        .init(start: Permission(), request: .allowWhenInUse, expected: Permission(state: .whenInUse)),
        .init(start: Permission(), request: .deny, expected: Permission(state: .denied)),
        .init(start: Permission(), request: .togglePrivate, expected: Permission(state: .denied)),
        .init(start: Permission(), request: .approximate, expected: Permission(accuracy: .approximate)),
        .init(start: Permission(state: .always), request: .allowWhenInUse, expected: Permission(state: .whenInUse)),
        .init(start: Permission(state: .whenInUse), request: .allowAlways, expected: Permission(state: .always)),
        .init(start: Permission(state: .always), request: .deny,
              expected: Permission(state: .denied, stateBeforePrivate: .always)),
        .init(start: Permission(state: .whenInUse), request: .togglePrivate,
              expected: Permission(state: .denied, stateBeforePrivate: .whenInUse)),
        .init(start: Permission(state: .denied, stateBeforePrivate: .whenInUse), request: .togglePrivate,
              expected: Permission(state: .whenInUse, stateBeforePrivate: .whenInUse)),
        .init(start: Permission(state: .denied, stateBeforePrivate: .always), request: .deny,
              expected: Permission(state: .denied, stateBeforePrivate: .always)),
        .init(start: Permission(state: .denied), request: .allowAlways, expected: Permission(state: .always)),
        .init(start: Permission(state: .always), request: .approximate, expected: approximateAlways),
        .init(start: approximateAlways, request: .preciseForGood, expected: Permission(state: .always)),
        .init(start: approximateAlways, request: .precise(forMilliseconds: 1_800_000),
              expected: Permission(state: .always, accuracy: .approximate, preciseUntil: after(1_800_000))),
        .init(start: Permission(state: .whenInUse, accuracy: .approximate), request: .precise(forMilliseconds: 1_000),
              expected: Permission(state: .whenInUse, accuracy: .approximate, preciseUntil: after(1_000))),
        .init(start: Permission(state: .always, accuracy: .approximate, preciseUntil: after(5_000)), request: .approximate,
              expected: approximateAlways),
        .init(start: Permission(state: .always, accuracy: .approximate, preciseUntil: after(5_000)), request: .deny,
              expected: Permission(state: .denied, accuracy: .approximate, stateBeforePrivate: .always)),
    ]

    @Test(arguments: acceptedCases)
    func accepted(_ c: PermissionTransitionCase) throws {
        var permission = c.start
        let change = try permission.apply(c.request, now: t0)
        #expect(permission == c.expected)
        #expect(change.old == c.start)
        #expect(change.new == c.expected)
        #expect(change.changed == (c.start != c.expected))
    }

    struct Rejection: Sendable, CustomTestStringConvertible {
        var start: Permission
        var request: PermissionRequest
        var error: PermissionError
        var testDescription: String { "\(start.state) + \(request) → \(error)" }
    }

    static let rejectedCases: [Rejection] = [
        .init(start: Permission(state: .restricted), request: .allowAlways, error: .restricted),
        .init(start: Permission(state: .restricted), request: .allowWhenInUse, error: .restricted),
        .init(start: Permission(state: .restricted), request: .deny, error: .restricted),
        .init(start: Permission(state: .restricted), request: .approximate, error: .restricted),
        .init(start: Permission(state: .restricted), request: .preciseForGood, error: .restricted),
        .init(start: Permission(state: .restricted), request: .precise(forMilliseconds: 60_000), error: .restricted),
        .init(start: Permission(state: .restricted), request: .togglePrivate, error: .restricted),
        .init(start: Permission(accuracy: .approximate), request: .precise(forMilliseconds: 60_000),
              error: .preciseNeedsAllowedState(.notDetermined)),
        .init(start: Permission(state: .denied, accuracy: .approximate), request: .precise(forMilliseconds: 60_000),
              error: .preciseNeedsAllowedState(.denied)),
        .init(start: Permission(state: .always), request: .precise(forMilliseconds: 60_000), error: .alreadyPrecise),
        .init(start: approximateAlways, request: .precise(forMilliseconds: 999),
              error: .durationOutOfRange(milliseconds: 999)),
        .init(start: approximateAlways, request: .precise(forMilliseconds: 86_400_001),
              error: .durationOutOfRange(milliseconds: 86_400_001)),
        .init(start: approximateAlways, request: .precise(forMilliseconds: -5),
              error: .durationOutOfRange(milliseconds: -5)),
        .init(start: Permission(state: .denied), request: .togglePrivate, error: .nothingToRestore),
    ]

    @Test(arguments: rejectedCases)
    func rejected(_ c: Rejection) {
        var permission = c.start
        #expect(throws: c.error) { try permission.apply(c.request, now: t0) }
        #expect(permission == c.start)
    }

    @Test func startUpHonoursTheConfig() {
        let stored = Permission(state: .always, accuracy: .approximate)
        #expect(Permission.atStartUp(stored: stored, configRestricts: true).state == .restricted)
        #expect(Permission.atStartUp(stored: stored, configRestricts: false) == stored)
        let wasRestricted = Permission(state: .restricted)
        #expect(Permission.atStartUp(stored: wasRestricted, configRestricts: false) == Permission())
    }

    @Test func preciseForExpires() {
        var permission = approximateAlways
        _ = try? permission.apply(.precise(forMilliseconds: 60_000), now: t0)
        #expect(permission.effectiveAccuracy(now: after(59_999)) == .precise)
        #expect(permission.effectiveAccuracy(now: after(60_000)) == .approximate)
        #expect(permission.expire(now: after(59_999)) == nil)
        let change = permission.expire(now: after(60_000))
        #expect(change?.old.preciseUntil == after(60_000))
        #expect(permission == approximateAlways)
        #expect(permission.expire(now: after(120_000)) == nil)
    }
}

@Suite struct PermissionDecisionTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var permission: Permission
        var inUse: Bool
        var onTrip: Bool
        var log: Bool
        var fences: Bool
        var testDescription: String {
            "\(permission.state) \(permission.accuracy) inUse=\(inUse) trip=\(onTrip)"
        }
    }

    static let precisePending = Permission(state: .whenInUse, accuracy: .approximate, preciseUntil: after(10_000))
    static let preciseExpired = Permission(state: .always, accuracy: .approximate, preciseUntil: after(0))

    static let table: [Row] = [
        .init(permission: Permission(), inUse: true, onTrip: true, log: false, fences: false),
        .init(permission: Permission(state: .restricted), inUse: true, onTrip: true, log: false, fences: false),
        .init(permission: Permission(state: .denied), inUse: true, onTrip: true, log: false, fences: false),
        .init(permission: Permission(state: .always), inUse: false, onTrip: false, log: true, fences: true),
        .init(permission: Permission(state: .whenInUse), inUse: false, onTrip: false, log: false, fences: false),
        .init(permission: Permission(state: .whenInUse), inUse: true, onTrip: false, log: true, fences: true),
        .init(permission: Permission(state: .whenInUse), inUse: false, onTrip: true, log: true, fences: true),
        .init(permission: approximateAlways, inUse: false, onTrip: false, log: true, fences: false),
        .init(permission: Permission(state: .whenInUse, accuracy: .approximate), inUse: true, onTrip: false,
              log: true, fences: false),
        .init(permission: precisePending, inUse: true, onTrip: false, log: true, fences: true),
        .init(permission: preciseExpired, inUse: false, onTrip: false, log: true, fences: false),
        .init(permission: Permission(state: .denied, accuracy: .approximate, preciseUntil: after(10_000)),
              inUse: true, onTrip: true, log: false, fences: false),
    ]

    @Test(arguments: table)
    func decisions(_ row: Row) {
        #expect(row.permission.mayLog(inUse: row.inUse, onTrip: row.onTrip, now: t0) == row.log)
        #expect(row.permission.mayEvaluateFences(inUse: row.inUse, onTrip: row.onTrip, now: t0) == row.fences)
    }

    @Test func snapFollowsEffectiveAccuracy() {
        let point = Coordinate(latitudeNanodegrees: 48_117_300_000, longitudeNanodegrees: 11_516_700_000)
        #expect(Permission(state: .always).snap(point, now: t0) == point)
        #expect(approximateAlways.snap(point, now: t0) == ApproximateGrid.snap(point))
        #expect(Self.precisePending.snap(point, now: t0) == point)
        #expect(Self.precisePending.snap(point, now: after(10_000)) == ApproximateGrid.snap(point))
    }
}
