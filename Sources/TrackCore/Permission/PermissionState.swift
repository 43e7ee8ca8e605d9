/// Whether the tracker may log and evaluate fences, persisted across power cuts, e.g. `.always`.
///
/// Raw values are the state file's encoding and must not change.
public enum PermissionState: UInt8, Equatable, Sendable {
    /// First boot: nothing decided yet, nothing logged (the LEDs still show the receiver).
    case notDetermined = 0
    /// The config forbids tracking; nothing changes it at run time.
    case restricted = 1
    /// Private mode: nothing logged, no fences.
    case denied = 2
    /// Log and evaluate fences only while in use (the `in-use` input, or a trip from speed).
    case whenInUse = 3
    /// Log and evaluate fences all the time.
    case always = 4

    /// True for `whenInUse` and `always`, the states that may log.
    public var isAllowed: Bool { self == .whenInUse || self == .always }
}

/// How precise the positions that leave the core are, e.g. `.approximate` (a ≥ 1 km grid cell).
///
/// Raw values are the state file's encoding and must not change.
public enum PermissionAccuracy: UInt8, Equatable, Sendable {
    /// Positions as the receiver gives them.
    case precise = 0
    /// Positions snapped to the ≥ 1 km grid of `ApproximateGrid`; fences off.
    case approximate = 1
}

/// A request from `trackctl privacy …` or the button, e.g. `.precise(forMilliseconds: 1_800_000)`.
public enum PermissionRequest: Equatable, Sendable {
    /// `trackctl privacy allow always`.
    case allowAlways
    /// `trackctl privacy allow when-in-use`.
    case allowWhenInUse
    /// `trackctl privacy deny`: private mode.
    case deny
    /// `trackctl privacy approximate`: snap positions, fences off, until `precise`.
    case approximate
    /// `trackctl privacy precise`: full accuracy for good (the opposite of `approximate`).
    case preciseForGood
    /// `trackctl privacy precise --for DURATION`: full accuracy for 1 s…24 h, then approximate
    /// again; needs `whenInUse` or `always`, e.g. 30 min is `1_800_000`.
    case precise(forMilliseconds: Int64)
    /// The 3 s button press: `denied` ↔ the allowed state before it.
    case togglePrivate
}

/// Why a request was refused, e.g. `.restricted` for any request while the config forbids.
public enum PermissionError: Error, Equatable, Sendable {
    /// The state is `restricted`: only the config can change it, at start-up.
    case restricted
    /// `precise --for` needs `whenInUse` or `always`; carries the current state.
    case preciseNeedsAllowedState(PermissionState)
    /// `precise --for` while accuracy is already precise for good.
    case alreadyPrecise
    /// A `precise --for` duration outside 1 s…24 h, in milliseconds.
    case durationOutOfRange(milliseconds: Int64)
    /// Leaving private mode with no allowed state to return to (it was entered from
    /// `notDetermined`, or by `deny` from a state that did not allow).
    case nothingToRestore

    /// A one-line reason for `trackctl`, e.g. "restricted by the configuration (…)".
    public var message: StaticString {
        switch self {
        case .restricted: "restricted by the configuration ([privacy] restricted = yes); only trackd.conf can change it"
        case .preciseNeedsAllowedState: "precise --for needs allow always or when-in-use"
        case .alreadyPrecise: "accuracy is already precise"
        case .durationOutOfRange: "duration must be 1 s to 24 h"
        case .nothingToRestore: "no earlier allowed state: use trackctl privacy allow"
        }
    }
}
