/// Strings and numbers: the byte-level grammar of RFC 8259 §6 and §7, with UTF-8 checked as
/// RFC 3629 defines it.
extension JSONReader {
    /// Parses a string at the next byte (its opening quote) into `text`, decoded.
    mutating func parseString() throws(JSONError) {
        position += 1
        text.removeAll(keepingCapacity: true)
        while true {
            let byte = try peek()
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return
            case UInt8(ascii: "\\"):
                try parseEscape()
            case 0..<0x20:
                throw error(.controlCharacterInString(byte))
            case 0x20..<0x80:
                text.append(byte)
                position += 1
            default:
                try copyUTF8Sequence()
            }
        }
    }

    mutating func parseEscape() throws(JSONError) {
        let escapeStart = offset
        position += 1
        let byte = try peek()
        position += 1
        let simple: UInt8
        switch byte {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if scalar >= 0xD800 && scalar < 0xDC00 {
                // A high surrogate must be followed by \u and a low one.
                guard peekByte() == UInt8(ascii: "\\") else { throw error(.loneSurrogate, at: escapeStart) }
                position += 1
                guard peekByte() == UInt8(ascii: "u") else { throw error(.loneSurrogate, at: escapeStart) }
                position += 1
                let low = try hexQuad()
                guard low >= 0xDC00 && low < 0xE000 else { throw error(.loneSurrogate, at: escapeStart) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if scalar >= 0xDC00 && scalar < 0xE000 {
                throw error(.loneSurrogate, at: escapeStart)
            }
            appendUTF8(scalar)
            return
        default:
            throw error(.invalidEscape, at: escapeStart)
        }
        text.append(simple)
    }

    mutating func hexQuad() throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = HexDigit.value(try peek()) else { throw error(.invalidEscape) }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    mutating func appendUTF8(_ scalar: UInt32) {
        if scalar < 0x80 {
            text.append(UInt8(scalar))
        } else if scalar < 0x800 {
            text.append(UInt8(0xC0 | scalar >> 6))
            text.append(UInt8(0x80 | scalar & 0x3F))
        } else if scalar < 0x10000 {
            text.append(UInt8(0xE0 | scalar >> 12))
            text.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            text.append(UInt8(0x80 | scalar & 0x3F))
        } else {
            text.append(UInt8(0xF0 | scalar >> 18))
            text.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            text.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            text.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Copies one multi-byte UTF-8 sequence, refusing what RFC 3629 forbids.
    mutating func copyUTF8Sequence() throws(JSONError) {
        ensure(4)
        let length = window.withUnsafeBufferPointer { UTF8Sequence.length($0.span.extracting(..<count), at: position) }
        guard let length else { throw error(.invalidUTF8) }
        for index in 0..<length { text.append(window[position + index]) }
        position += length
    }

    /// Parses `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = offset
        var number = JSONNumber(negative: false, significand: 0, exponent: 0)
        if peekByte() == UInt8(ascii: "-") {
            number.negative = true
            position += 1
        }
        var digits = 0
        var significantDigits = 0
        var fractionDigits = 0
        var seenPoint = false
        var dropped = 0
        while let byte = peekByte() {
            if byte == UInt8(ascii: ".") {
                guard !seenPoint, digits > 0 else { break }
                seenPoint = true
                position += 1
                guard let next = peekByte(), isDigit(next) else { throw error(.malformedNumber, at: start) }
                continue
            }
            guard isDigit(byte) else { break }
            // A leading zero may only stand alone before the point.
            if digits == 1 && !seenPoint && number.significand == 0 && significantDigits == 0 {
                throw error(.malformedNumber, at: start)
            }
            digits += 1
            if seenPoint { fractionDigits += 1 }
            let digit = UInt64(byte - UInt8(ascii: "0"))
            if significantDigits < 19 {
                number.significand = number.significand * 10 + digit
                if number.significand > 0 { significantDigits += 1 }
            } else {
                if !seenPoint { dropped += 1 }
                if digit != 0 { number.truncated = true }
                if seenPoint { fractionDigits -= 1 }
            }
            position += 1
        }
        guard digits > 0 else { throw error(.malformedNumber, at: start) }
        var exponent = 0
        if let byte = peekByte(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            position += 1
            var negativeExponent = false
            if let sign = peekByte(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                negativeExponent = sign == UInt8(ascii: "-")
                position += 1
            }
            var exponentDigits = 0
            while let digit = peekByte(), isDigit(digit) {
                exponent = min(exponent * 10 + Int(digit - UInt8(ascii: "0")), 1_000_000)
                exponentDigits += 1
                position += 1
            }
            guard exponentDigits > 0 else { throw error(.malformedNumber, at: start) }
            if negativeExponent { exponent = -exponent }
        }
        number.exponent = exponent + dropped - fractionDigits
        return number
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
