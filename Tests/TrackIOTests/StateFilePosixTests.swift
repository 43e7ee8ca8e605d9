import TestData
import Testing
import TrackCore
import TrackIO

@Suite struct StateFilePosixTests {
    @Test func roundTripOnARealDirectory() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var file = StateFile(path: folder.file("state"), storage: PosixStateFileStorage())
        #expect(file.directory == folder.path)
        let (first, problem) = file.loadOrDefault()
        #expect(first == PersistedState())
        #expect(problem == nil)
        let state = PersistedState(permission: Permission(state: .whenInUse, accuracy: .approximate),
                                   odometerMillimetres: 42_000, bootCount: 1, saveCount: 1)
        try file.save(state)
        var again = state
        again.saveCount = 2
        try file.save(again)
        var reopened = StateFile(path: folder.file("state"), storage: PosixStateFileStorage())
        #expect(try reopened.load() == again)
    }

    @Test func missingDirectoryIsASaveError() {
        var file = StateFile(path: "/nonexistent-trackd-dir/state", storage: PosixStateFileStorage())
        #expect(throws: StateFileError.saveFailed(path: "/nonexistent-trackd-dir/state", step: .create, .noSuchFile)) {
            try file.save(PersistedState())
        }
    }
}
