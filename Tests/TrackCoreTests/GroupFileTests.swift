import Testing
import TrackCore

@Suite struct GroupFileTests {
    static let file = """
        root:x:0:
        adm:x:4:syslog,pi
        +nis:::
        -blocked:x:77:
        broken:x:12a:
        huge:x:4294967295:
        tooLong:x:12345678901:
        dialout:x:20:pi
        trackd:x:998:
        gpio:x:997:trackd
        trackd:x:1:
        short:x
        nogid:x::
        plus:x:+5:
        spaced:x: 5:
        negative:x:-1:
        zeros:x:0042:
        largest:x:4294967294:
        """

    @Test(arguments: [
        ("root", UInt32(0)), ("adm", 4), ("dialout", 20), ("gpio", 997),
        // The first line naming a group wins, as glibc's files module answers.
        ("trackd", 998),
        // Leading zeros mean nothing; the largest id short of (gid_t)-1.
        ("zeros", 42), ("largest", 4_294_967_294),
    ])
    func findsGroups(name: String, id: UInt32) {
        #expect(GroupFile.groupID(named: name, in: Array(Self.file.utf8)) == id)
    }

    @Test(arguments: [
        "missing", "", "nis", "+nis", "blocked", "-blocked", "broken", "huge", "tooLong", "short",
        "nogid", "trackd:x", "track", "trackdd", "x", "plus", "spaced", "negative",
    ])
    func rejectsMissingAndMalformed(name: String) {
        #expect(GroupFile.groupID(named: name, in: Array(Self.file.utf8)) == nil)
    }

    @Test func lastLineWithoutNewlineAndEmptyFile() {
        #expect(GroupFile.groupID(named: "a", in: Array("b:x:1:\na:x:2".utf8)) == 2)
        #expect(GroupFile.groupID(named: "a", in: []) == nil)
        #expect(GroupFile.groupID(named: "a", in: Array("\n\n\n".utf8)) == nil)
    }
}
