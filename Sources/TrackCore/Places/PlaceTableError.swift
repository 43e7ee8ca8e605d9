/// Why a gazetteer file (places.bin) was refused; `description` names what is wrong and
/// where, e.g. `not a trackd places table (no TRKPLACE at offset 0)`.
public enum PlaceTableError: Error, Equatable, Sendable {
    /// Fewer bytes than the 64-byte header.
    case tooShort(byteCount: Int)
    /// The first 8 bytes are not `TRKPLACE`.
    case notAPlaceTable
    /// A format version this build cannot read.
    case unsupportedVersion(UInt32)
    /// A header field is out of range, e.g. a leaf size of 0.
    case badHeader(field: String, value: UInt32)
    /// A section does not start where the one before it ends.
    case misplacedSection(String, expectedOffset: Int, offset: Int)
    /// The file is longer or shorter than its sections, e.g. after a truncated copy.
    case badSize(expected: Int, actual: Int)

    /// One line for the user, e.g. `truncated or padded: the sections end at offset 4711195, the file has 4711000 bytes`.
    public var description: String {
        switch self {
        case .tooShort(let count):
            return "too short for a places table (" + String(count) + " bytes, the header alone is 64)"
        case .notAPlaceTable:
            return "not a trackd places table (no TRKPLACE at offset 0)"
        case .unsupportedVersion(let version):
            return "places table format version " + String(version) + " (this trackd reads version 1)"
        case .badHeader(let field, let value):
            return "header field '" + field + "' is " + String(value) + ", out of range"
        case .misplacedSection(let section, let expected, let offset):
            return "section " + section + " at offset " + String(offset) + ", expected " + String(expected)
        case .badSize(let expected, let actual):
            return "truncated or padded: the sections end at offset " + String(expected) + ", the file has "
                + String(actual) + " bytes"
        }
    }
}
