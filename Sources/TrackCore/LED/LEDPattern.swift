/// One step of an LED pattern: the line's level held for a number of milliseconds, e.g.
/// `LEDStep(on: true, milliseconds: 100)` is "on for 100 ms".
public struct LEDStep: Equatable, Hashable, Sendable {
    /// True when the LED is lit during this step.
    public var isOn: Bool
    /// How long the step lasts, 1 … 60 000 ms.
    public var milliseconds: Int32

    /// A step of `milliseconds` (1 … 60 000) at `on`.
    public init(on: Bool, milliseconds: Int32) {
        self.isOn = on
        self.milliseconds = milliseconds
    }
}

/// An LED pattern as data: up to `LEDPattern.maximumSteps` on/off steps, played in a loop or
/// once, with a priority that decides which pattern a line shows when several want it.
///
/// A repeating pattern is in phase with the monotonic clock: step 0 starts whenever `now` is a
/// multiple of `period` since the clock's origin, so the pattern looks the same after anything
/// pre-empted it. A one-shot plays once from its trigger time, then leaves the line to the
/// pattern below it. Example: 2D fix, `on 100 off 100 on 100 off 700`, repeating, period 1000 ms.
public struct LEDPattern: Equatable, Sendable {
    /// The most steps a pattern holds (8): enough for three flashes framed by gaps.
    public static let maximumSteps = 8
    /// The longest step, 60 000 ms (one minute).
    public static let maximumStepMilliseconds: Int32 = 60_000

    /// Whether a pattern loops or plays once.
    public enum Mode: Equatable, Sendable {
        /// Loops forever, in phase with the clock.
        case repeating
        /// Plays once from its trigger time.
        case once
    }

    private var storage: InlineArray<8, LEDStep>
    /// Number of steps in use, 1 … `maximumSteps`.
    public private(set) var stepCount: Int
    /// Loop or once.
    public var mode: Mode
    /// Higher pre-empts lower on the same line, 0 … 255; the normal state pattern is 0.
    public var priority: UInt8
    /// Sum of the steps, in milliseconds, e.g. 1000 for `on 500 off 500`.
    public private(set) var periodMilliseconds: Int64
    /// True when every step has the same level (`solid`, `off`): the line never changes.
    public private(set) var isSteady: Bool

    /// A pattern of `steps` (1 … 8 of them, each 1 … 60 000 ms), e.g.
    /// `LEDPattern(steps: [.init(on: true, milliseconds: 500), .init(on: false, milliseconds: 500)])`
    /// is a 1 Hz blink. Returns nil for any other count or duration; the text form
    /// (`LEDPattern.parse`) reports those as `LEDPatternError`.
    public init?(steps: [LEDStep], mode: Mode = .repeating, priority: UInt8 = 0) {
        guard (1...Self.maximumSteps).contains(steps.count) else { return nil }
        var storage = InlineArray<8, LEDStep>(repeating: LEDStep(on: false, milliseconds: 1))
        for index in steps.indices {
            guard (1...Self.maximumStepMilliseconds).contains(steps[index].milliseconds) else { return nil }
            storage[index] = steps[index]
        }
        self.init(storage: storage, stepCount: steps.count, mode: mode, priority: priority)
    }

    private init(storage: InlineArray<8, LEDStep>, stepCount: Int, mode: Mode, priority: UInt8) {
        self.storage = storage
        self.stepCount = stepCount
        self.mode = mode
        self.priority = priority
        periodMilliseconds = 0
        isSteady = true
        for index in 0..<stepCount {
            periodMilliseconds += Int64(storage[index].milliseconds)
            if storage[index].isOn != storage[0].isOn { isSteady = false }
        }
    }

    /// Step `index` (0 ..< `stepCount`).
    public func step(_ index: Int) -> LEDStep {
        precondition(index >= 0 && index < stepCount, "LED step index out of range")
        return storage[index]
    }

    /// The steps as an array (for tests and documentation; allocates).
    public var steps: [LEDStep] {
        var result: [LEDStep] = []
        for index in 0..<stepCount { result.append(storage[index]) }
        return result
    }

    /// Always lit, e.g. `led-fix` with a 3D fix.
    public static let solid = steady(on: true)
    /// Always dark, e.g. `led-fix` while the receiver is silent.
    public static let off = steady(on: false)

    /// A steady pattern (one step of 1000 ms) at `on`, e.g. `.steady(on: true)` is `solid`.
    public static func steady(on: Bool, mode: Mode = .repeating, priority: UInt8 = 0) -> LEDPattern {
        LEDPattern(storage: InlineArray(repeating: LEDStep(on: on, milliseconds: 1000)), stepCount: 1,
                   mode: mode, priority: priority)
    }

    /// This pattern with another mode and priority (an override from the config keeps its
    /// slot's mode and priority).
    public func with(mode: Mode, priority: UInt8) -> LEDPattern {
        var copy = self
        copy.mode = mode
        copy.priority = priority
        return copy
    }

    public static func == (lhs: LEDPattern, rhs: LEDPattern) -> Bool {
        guard lhs.stepCount == rhs.stepCount, lhs.mode == rhs.mode, lhs.priority == rhs.priority else {
            return false
        }
        for index in 0..<lhs.stepCount where lhs.storage[index] != rhs.storage[index] { return false }
        return true
    }
}

extension LEDPattern {
    /// Where a pattern is `elapsed` nanoseconds into its period (0 ..< period): the level and
    /// the nanoseconds left until the step ends. Allocates nothing.
    func position(elapsedNanoseconds elapsed: Int64) -> (isOn: Bool, remainingNanoseconds: Int64) {
        var stepEnd: Int64 = 0
        for index in 0..<stepCount {
            let step = storage[index]
            stepEnd += Int64(step.milliseconds) * 1_000_000
            if elapsed < stepEnd { return (step.isOn, stepEnd - elapsed) }
        }
        // Unreachable for 0 ≤ elapsed < period; hold the last level to the period's end.
        return (storage[stepCount - 1].isOn, 1)
    }

    /// The period in nanoseconds.
    var periodNanoseconds: Int64 { periodMilliseconds * 1_000_000 }
}
