import Testing
@testable import TrackCore

@Suite("Position vote within an epoch")
struct PositionVoteTests {
    static let p1 = Coordinate(latitudeNanodegrees: 52_849_508_333, longitudeNanodegrees: 5_312_205_000)
    // 2.6 m away: what the B&G Zeus 9's GGA says for the same second.
    static let p2 = Coordinate(latitudeNanodegrees: 52_849_493_333, longitudeNanodegrees: 5_312_175_000)
    // 3.7 cm from p1: the same fix with fewer decimals.
    static let p1Rounded = Coordinate(latitudeNanodegrees: 52_849_508_000, longitudeNanodegrees: 5_312_205_000)

    @Test("no sentence, no position")
    func empty() {
        #expect(PositionVote().winner == nil)
    }

    @Test("the position most sentences agree on wins", arguments: [
        ([p1, p1, p2], p1),
        ([p2, p1, p1], p1),
        ([p1, p2, p2], p2),
    ])
    func majority(_ ballots: [Coordinate], _ expected: Coordinate) {
        var vote = PositionVote()
        for position in ballots { vote.add(position) }
        #expect(vote.winner == expected)
    }

    @Test("equal votes: the latest wins; agreeing positions: the latest of them")
    func ties() {
        var vote = PositionVote()
        vote.add(Self.p1)
        vote.add(Self.p2)
        #expect(vote.winner == Self.p2)
        var rounding = PositionVote()
        rounding.add(Self.p1)
        rounding.add(Self.p1Rounded)
        #expect(rounding.winner == Self.p1Rounded)
    }

    @Test("positions across the antimeridian can agree")
    func antimeridian() {
        #expect(PositionVote.same(
            Coordinate(latitudeNanodegrees: 0, longitudeNanodegrees: 179_999_999_000),
            Coordinate(latitudeNanodegrees: 0, longitudeNanodegrees: -179_999_999_000)))
    }
}
