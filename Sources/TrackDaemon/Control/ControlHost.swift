import TrackCore
import TrackIO

/// What the control service asks of the daemon it serves: the answers that read or change
/// more than one service. The daemon is the one host (`Daemon+Host.swift`); the control
/// service parses, answers and replies (`ControlAnswer`), and knows nothing else of it.
protocol ControlHost: ~Copyable {
    /// The wake-up at `now` as the permission stands now (after a change: the new one).
    mutating func wake(_ now: MonotonicTime) -> Wake
    /// Everything `status`, `status json` and `doctor` report at `wake`.
    mutating func statusModel(_ wake: Wake) -> StatusModel
    /// The current position as it may leave the daemon (`where`), or why there is none.
    mutating func currentPosition(_ wake: Wake) -> Result<DisclosedPosition, PositionRefusal>
    /// The place name that may be shown under `disclosure`.
    mutating func placeWords(_ disclosure: Disclosure) -> PlaceWords?
    /// Records a waypoint at the current position (`mark`): it and its number since start.
    mutating func markWaypoint(_ label: WaypointLabel, _ wake: Wake) -> Result<(DisclosedPosition, number: Int), PositionRefusal>
    /// Applies a `privacy …` request (saved after this wake-up's requests).
    mutating func changePrivacy(_ request: PermissionRequest, now: MonotonicTime) throws(PermissionError)
    /// Presses the simulated board's button; false when the board cannot be pressed from here.
    mutating func pressButton(_ press: GPIOStatus.SimulatedPress, now: MonotonicTime) -> Bool
    /// `fence list`: every fence, its state and since when.
    mutating func writeFenceList(to reply: inout ReplyBuffer)
    /// `receiver …`: answered by the receiver service.
    mutating func answerReceiver(_ request: ReceiverRequest, now: MonotonicTime, reply: inout ReplyBuffer)
}
