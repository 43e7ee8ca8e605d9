/// Why a JSON text was rejected, and where: the byte offset (0-based), line and column
/// (1-based, columns in bytes) and the problem.
///
/// `description` is one line, e.g. `line 3, column 7: unexpected ',' (0x2C)`.
public struct JSONError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Offset of the offending byte from the start of the text.
    public var offset: Int
    /// Line of the offending byte, 1 for the first line.
    public var line: Int
    /// Column of the offending byte in bytes, 1 for the first byte of a line.
    public var column: Int
    /// What is wrong.
    public var problem: Problem

    /// An error at `offset`, `line`, `column`.
    public init(offset: Int, line: Int, column: Int, problem: Problem) {
        self.offset = offset
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// What RFC 8259 forbids at that place.
    public enum Problem: Error, Equatable, Sendable {
        /// The text ended inside a value, or was empty.
        case unexpectedEnd
        /// A byte that cannot start or continue a value here, e.g. `,` after `[1,`.
        case unexpectedByte(UInt8)
        /// A number that breaks the grammar: leading zero (`01`), no digit after `.` or `e`, `-`
        /// alone.
        case malformedNumber
        /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
        case invalidEscape
        /// A `\u` escape of a UTF-16 surrogate without its partner, e.g. `"\uD800"`.
        case loneSurrogate
        /// A raw byte below 0x20 inside a string (it must be escaped).
        case controlCharacterInString(UInt8)
        /// Bytes that are not well-formed UTF-8 (overlong, surrogate, above U+10FFFF, cut off).
        case invalidUTF8
        /// Objects and arrays nested deeper than `JSONDocument.maximumDepth`.
        case tooDeep
        /// Something other than white space after the top-level value.
        case trailingContent
        /// A key that occurs twice in one object (RFC 8259 leaves the meaning open; we refuse).
        case duplicateKey(String)
    }

    /// The error as one line, e.g. `line 1, column 4: a key occurs twice: "id"`.
    public var description: String {
        var text = String(joining: "line ", String(line), ", column ", String(column), ": ")
        switch problem {
        case .unexpectedEnd: text += "unexpected end of the text"
        case .unexpectedByte(let byte): text += "unexpected " + JSONError.quoted(byte)
        case .malformedNumber: text += "malformed number"
        case .invalidEscape: text += "invalid escape in a string"
        case .loneSurrogate: text += "\\u escape of a lone UTF-16 surrogate"
        case .controlCharacterInString(let byte): text += "unescaped control byte " + HexDigit.byteText(byte) + " in a string"
        case .invalidUTF8: text += "bytes that are not UTF-8"
        case .tooDeep: text += String(joining: "nested deeper than ", String(JSONDocument.maximumDepth), " levels")
        case .trailingContent: text += "text after the value"
        case .duplicateKey(let key): text += "a key occurs twice: \"" + key + "\""
        }
        return text
    }

    static func quoted(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F {
            return "'" + String(Unicode.Scalar(byte)) + "' (" + HexDigit.byteText(byte) + ")"
        }
        return "byte " + HexDigit.byteText(byte)
    }
}
