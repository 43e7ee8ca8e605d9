/// The layout of an offline gazetteer (places.bin, docs/places.md), read from its header: a
/// k-d tree of place positions, each place's name, population and admin1 region, and a text
/// pool. The table never copies the file: every call takes the file's bytes (a mapped file in
/// the daemon) and reads only what it needs, so a lookup touches a few pages of a 4.7 MB file.
///
/// Reading never traps on a damaged file: the header is checked when the table is made, and a
/// name or region that points outside its section reads as empty. Example:
///
///     let table = try PlaceTable(bytes)                       // 155,210 places
///     let match = table.nearest(to: position, withinMetres: 50_000, in: bytes)
///     let place = table.place(match!.index, in: bytes)        // Tübingen, pop. 83,416
public struct PlaceTable: Equatable, Sendable {
    /// Places in the table.
    public let placeCount: Int
    /// Admin1 regions (a country's first-level division, or the country itself).
    public let regionCount: Int
    /// Largest node of the tree that is scanned instead of split (points − 1).
    let leafSize: Int
    let coordinatesOffset: Int
    let detailsOffset: Int
    let regionsOffset: Int
    let textOffset: Int
    let textSize: Int
    let sourceOffset: Int

    /// The 64-byte header's size, where the coordinates start.
    public static var headerSize: Int { 64 }

    /// Reads and checks the header of `bytes`, the whole file; throws naming the first problem.
    public init(_ bytes: Span<UInt8>) throws(PlaceTableError) {
        guard bytes.count >= Self.headerSize else { throw .tooShort(byteCount: bytes.count) }
        let magic: StaticString = "TRKPLACE"
        for offset in 0..<8 where bytes[offset] != magic.utf8Start[offset] { throw .notAPlaceTable }
        let version = Self.u32(bytes, 8)
        guard version == 1 else { throw .unsupportedVersion(version) }
        let places = Self.u32(bytes, 12)
        let regions = Self.u32(bytes, 16)
        let leaf = Self.u32(bytes, 20)
        guard places <= 100_000_000 else { throw .badHeader(field: "place count", value: places) }
        guard regions <= 0xFFFF else { throw .badHeader(field: "region count", value: regions) }
        guard leaf >= 1, leaf <= 4096 else { throw .badHeader(field: "leaf size", value: leaf) }
        placeCount = Int(places)
        regionCount = Int(regions)
        leafSize = Int(leaf)
        coordinatesOffset = Int(Self.u32(bytes, 24))
        detailsOffset = Int(Self.u32(bytes, 28))
        regionsOffset = Int(Self.u32(bytes, 32))
        textOffset = Int(Self.u32(bytes, 36))
        textSize = Int(Self.u32(bytes, 40))
        sourceOffset = Int(Self.u32(bytes, 44))
        // The sections follow each other in this order with no gaps, and end the file.
        try Self.expect("coordinates", Self.headerSize, coordinatesOffset)
        try Self.expect("details", coordinatesOffset + 8 * placeCount, detailsOffset)
        try Self.expect("regions", detailsOffset + 12 * placeCount, regionsOffset)
        try Self.expect("text", regionsOffset + 8 * regionCount, textOffset)
        guard textOffset + textSize == bytes.count else {
            throw .badSize(expected: textOffset + textSize, actual: bytes.count)
        }
    }

    static func expect(_ section: String, _ expected: Int, _ offset: Int) throws(PlaceTableError) {
        guard expected == offset else { throw .misplacedSection(section, expectedOffset: expected, offset: offset) }
    }

    /// Where place `index` (0 ≤ index < placeCount) is, at 1e-7°.
    public func position(_ index: Int, in bytes: Span<UInt8>) -> LogPosition {
        let offset = coordinatesOffset + 8 * index
        return LogPosition(latitudeE7: Int32(bitPattern: Self.u32(bytes, offset)),
                           longitudeE7: Int32(bitPattern: Self.u32(bytes, offset + 4)))
    }

    /// Everything the table holds about place `index`.
    public func place(_ index: Int, in bytes: Span<UInt8>) -> PlaceRecord {
        let offset = detailsOffset + 12 * index
        let region = Int(Self.u16(bytes, offset + 8))
        var admin1 = PlaceText.empty
        var country: (UInt8, UInt8) = (UInt8(ascii: "?"), UInt8(ascii: "?"))
        if region < regionCount {
            let entry = regionsOffset + 8 * region
            admin1 = text(at: Int(Self.u32(bytes, entry)), in: bytes)
            country = (bytes[entry + 4], bytes[entry + 5])
        }
        return PlaceRecord(index: index, position: position(index, in: bytes),
                           name: text(at: Int(Self.u32(bytes, offset)), in: bytes),
                           admin1: admin1, countryCode: country,
                           population: Self.u32(bytes, offset + 4))
    }

    /// The attribution stored in the file, e.g. `GeoNames cities1000 (CC BY 4.0, geonames.org), …`.
    public func source(in bytes: Span<UInt8>) -> PlaceText {
        text(at: sourceOffset, in: bytes)
    }

    /// The length-prefixed text at `offset` of the pool; empty when it does not fit the pool.
    func text(at offset: Int, in bytes: Span<UInt8>) -> PlaceText {
        guard offset >= 0, offset < textSize else { return .empty }
        let length = Int(bytes[textOffset + offset])
        guard offset + 1 + length <= textSize else { return .empty }
        return PlaceText(offset: textOffset + offset + 1, count: length)
    }

    static func u32(_ bytes: Span<UInt8>, _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }

    static func u16(_ bytes: Span<UInt8>, _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }
}

/// Where a piece of UTF-8 text lies in the table's bytes, e.g. `Tübingen`: 9 bytes at 4_120_001.
public struct PlaceText: Equatable, Sendable {
    /// Byte offset in the file.
    public var offset: Int
    /// Length in bytes (0…255).
    public var count: Int

    /// No text.
    public static var empty: PlaceText { PlaceText(offset: 0, count: 0) }

    /// The text as a String (allocates: for the command line, not the daemon's loop); a damaged
    /// file's invalid UTF-8 is repaired with U+FFFD.
    public func string(in bytes: Span<UInt8>) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(count)
        for index in offset..<(offset + count) { utf8.append(bytes[index]) }
        return String(decoding: utf8, as: UTF8.self)
    }
}

/// One place of the gazetteer, e.g. Tübingen, Baden-Wurttemberg, DE at 48.52266°N 9.05222°E,
/// population 83,416.
public struct PlaceRecord: Equatable, Sendable {
    /// Its index in the table.
    public var index: Int
    /// Its position at 1e-7° (GeoNames gives 1e-5°).
    public var position: LogPosition
    /// Its name in UTF-8, e.g. `Tübingen`.
    public var name: PlaceText
    /// Its admin1 region's name, e.g. `Baden-Wurttemberg`; empty for places without one.
    public var admin1: PlaceText
    /// ISO 3166 alpha-2 country code as two ASCII bytes, e.g. `DE`.
    public var countryCode: (UInt8, UInt8)
    /// Inhabitants as GeoNames counts them (0 when unknown, as for some seats of divisions).
    public var population: UInt32

    /// The radius in metres within which a position is "in" the place: 10 m × √population,
    /// at least 1 km and at most 20 km, e.g. 2,888 m for 83,416 inhabitants, 7,939 m for 630,305.
    public var radiusMetres: Double {
        min(max(10 * Math.squareRoot(Double(population)), 1_000), 20_000)
    }

    /// The country code as a String, e.g. `DE`.
    public var countryCodeText: String {
        String(decoding: [countryCode.0, countryCode.1], as: UTF8.self)
    }

    /// A record from its parts.
    public init(index: Int, position: LogPosition, name: PlaceText, admin1: PlaceText,
                countryCode: (UInt8, UInt8), population: UInt32) {
        self.index = index
        self.position = position
        self.name = name
        self.admin1 = admin1
        self.countryCode = countryCode
        self.population = population
    }

    public static func == (lhs: PlaceRecord, rhs: PlaceRecord) -> Bool {
        lhs.index == rhs.index && lhs.position == rhs.position && lhs.name == rhs.name && lhs.admin1 == rhs.admin1
            && lhs.countryCode == rhs.countryCode && lhs.population == rhs.population
    }
}
