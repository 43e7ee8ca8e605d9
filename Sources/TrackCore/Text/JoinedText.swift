// Messages put together from pieces.
//
// In Embedded Swift each piece of a string interpolation compiles to its own inlined append
// (about 150 bytes of aarch64 code a piece); the error and status texts have hundreds of them.
// `String(joining:)` is one function every message calls: a piece costs its two words.

extension String {
    /// `parts` one after another, e.g. `String(joining: line, " on ", chip)` → `GPIO17 on gpiochip0`.
    @inline(never)
    public init(joining parts: String...) {
        var count = 0
        for part in parts { count += part.utf8.count }
        var text = ""
        text.reserveCapacity(count)
        for part in parts { text.append(part) }
        self = text
    }
}
