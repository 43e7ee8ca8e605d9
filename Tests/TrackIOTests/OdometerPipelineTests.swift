import Testing
import TrackCore
@testable import TrackDaemon

/// The daemon's odometer: the length of the recorded track, only what may be logged.
@Suite("Odometer in the fix pipeline")
struct OdometerPipelineTests {
    /// Ten 3D fixes a second apart, each 50 m north of the last (180 km/h is within max-speed).
    static func drive(_ permission: Permission) -> DaemonStatus {
        var pipeline = ConfigLoader.pipeline(TrackdConfig())
        pipeline.status.permission = permission
        for second in 0..<10 {
            var fix = Fix()
            fix.mode = .threeD
            fix.time = UTCTime(millisecondsSinceEpoch: 1_700_000_000_000 + Int64(second) * 1_000)
            // 50 m of latitude is about 449 640 nanodegrees.
            fix.position = Coordinate(latitudeNanodegrees: 48_000_000_000 + Int64(second) * 449_640,
                                      longitudeNanodegrees: 9_000_000_000)
            fix.satellitesUsed = 9
            fix.hdopCenti = 90
            _ = pipeline.handle(fix, now: .milliseconds(Int64(second) * 1_000))
        }
        return pipeline.status
    }

    @Test("recorded fixes add their geodesic distance")
    func recorded() {
        let status = Self.drive(Permission(state: .always))
        #expect(status.sampling.recorded >= 2)
        // Nine 50 m steps when every fix is recorded; fewer steps of more metres otherwise,
        // the same length along a straight line.
        #expect(abs(status.odometer.totalMillimetres - 450_000) < 1_000, "\(status.odometer.totalMillimetres)")
    }

    @Test("fixes that may not be logged add nothing", arguments: [PermissionState.notDetermined, .denied, .whenInUse])
    func notLogged(state: PermissionState) {
        #expect(Self.drive(Permission(state: state)).odometer.totalMillimetres == 0)
    }
}
