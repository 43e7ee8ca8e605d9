/// The position of one epoch when its sentences disagree: each position-bearing sentence
/// (RMC, GGA, GNS, GLL) votes; positions within about a metre of each other count as the same
/// (receivers round differently: ac12's GGA has five decimals of minutes, its RMC four), and
/// the position most sentences agree on wins, the latest of equals.
///
/// Receivers agree with themselves, so this only matters for relays: the B&G Zeus 9 chart
/// plotter stamps its GGA with the previous second, so GGA says one place and RMC and GLL
/// another for the same time.
struct PositionVote: Sendable {
    /// Nanodegrees within which two positions are the same (1e-5°: 1.1 m of latitude).
    static var sameWithin: Int64 { 10_000 }

    var positions: InlineArray<4, Coordinate> = InlineArray(repeating: Coordinate(latitudeNanodegrees: 0, longitudeNanodegrees: 0))
    var votes: InlineArray<4, UInt8> = InlineArray(repeating: 0)
    var count = 0
    var best = 0

    /// Adds one sentence's position. The candidate just voted for is the latest, so it takes
    /// the lead whenever it has at least as many votes as the leader.
    mutating func add(_ position: Coordinate) {
        var chosen = count
        for index in 0..<count where Self.same(positions[index], position) {
            chosen = index
            break
        }
        if chosen == count {
            guard count < 4 else { return }
            count += 1
            votes[chosen] = 0
        }
        positions[chosen] = position
        votes[chosen] &+= 1
        if votes[chosen] >= votes[best] { best = chosen }
    }

    /// The winning position, or nil when no sentence gave one.
    var winner: Coordinate? { count > 0 ? positions[best] : nil }

    static func same(_ a: Coordinate, _ b: Coordinate) -> Bool {
        var longitude = (a.longitudeNanodegrees - b.longitudeNanodegrees).magnitude
        if longitude > 180_000_000_000 { longitude = 360_000_000_000 - longitude }
        return (a.latitudeNanodegrees - b.latitudeNanodegrees).magnitude <= UInt64(sameWithin)
            && longitude <= UInt64(sameWithin)
    }
}
