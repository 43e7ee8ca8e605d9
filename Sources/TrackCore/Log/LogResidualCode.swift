/// The adaptive code of one field's signed residuals (what is left after prediction), as
/// binary decisions for the arithmetic coder: an exponential-Golomb shape whose probabilities
/// learn the field's distribution, so a field that is mostly 0 costs a small fraction of a bit
/// and a noisy one little more than its entropy.
///
/// A residual r is coded as (docs/log-format.md, "Residuals"): "is r ≠ 0" (model `zero`); if so
/// "is r < 0" (model `sign`); then with a = |r| and e = ⌊log2 a⌋ (0…63): e 1-decisions and a
/// 0-decision in unary (the i-th on model `exponent[min(i, 19)]`; no 0 after 63), then the e bits
/// of a below its top bit, most significant first: the first three on a binary tree of models
/// per exponent when e ≤ 15, the others at even odds. E.g. r = −5: ≠ 0, < 0, e = 2 (`1 1 0`),
/// then bits `0 1`.
struct LogResidualCode: Sendable {
    static let exponentModels = 20
    static let treeExponents = 15
    static let treeDepth = 3
    /// Models per exponent's tree: nodes 1…7 of a depth-3 binary tree.
    static let treeNodes = 7

    var zero = LogBitModel()
    var sign = LogBitModel()
    var exponent = InlineArray<20, LogBitModel>(repeating: LogBitModel())
    /// Exponent e's tree node n (1…7) at index (e − 1) · 7 + n − 1.
    var tree = InlineArray<105, LogBitModel>(repeating: LogBitModel())

    mutating func encode(_ residual: Int64, _ coder: inout LogArithmeticEncoder, _ bytes: inout MutableSpan<UInt8>) {
        coder.encode(residual == 0 ? 0 : 1, &zero, &bytes)
        guard residual != 0 else { return }
        coder.encode(residual < 0 ? 1 : 0, &sign, &bytes)
        let magnitude = residual.magnitude
        let e = 63 - magnitude.leadingZeroBitCount
        for index in 0..<e { coder.encode(1, &exponent[min(index, 19)], &bytes) }
        if e < 63 { coder.encode(0, &exponent[min(e, 19)], &bytes) }
        var node = 1
        var index = e
        while index > 0 {
            index -= 1
            let bit = (magnitude >> UInt64(index)) & 1
            if e <= LogResidualCode.treeExponents && e - 1 - index < LogResidualCode.treeDepth {
                coder.encode(bit, &tree[(e - 1) * LogResidualCode.treeNodes + node - 1], &bytes)
                node = node * 2 + Int(bit)
            } else {
                coder.encode(bit, zeroChance: LogBitModel.even, &bytes)
            }
        }
    }

    /// The inverse of `encode`; a magnitude that does not fit Int64 with its sign is
    /// `.malformedPayload` at `offset`.
    mutating func decode(_ coder: inout LogArithmeticDecoder, _ bytes: Span<UInt8>, offset: Int) throws(LogError) -> Int64 {
        guard coder.decode(&zero, bytes) == 1 else { return 0 }
        let negative = coder.decode(&sign, bytes) == 1
        var e = 0
        while e < 63, coder.decode(&exponent[min(e, 19)], bytes) == 1 { e += 1 }
        var magnitude: UInt64 = 1
        var node = 1
        for step in 0..<e {
            let bit: UInt64
            if e <= LogResidualCode.treeExponents && step < LogResidualCode.treeDepth {
                bit = coder.decode(&tree[(e - 1) * LogResidualCode.treeNodes + node - 1], bytes)
                node = node * 2 + Int(bit)
            } else {
                bit = coder.decode(zeroChance: LogBitModel.even, bytes)
            }
            magnitude = magnitude << 1 | bit
        }
        if negative {
            guard magnitude <= 1 << 63 else { throw .malformedPayload(offset: offset) }
            return 0 &- Int64(truncatingIfNeeded: magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw .malformedPayload(offset: offset) }
        return Int64(magnitude)
    }
}
