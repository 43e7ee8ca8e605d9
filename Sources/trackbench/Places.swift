import TrackCore
import TrackIO

/// `trackbench places PLACES.bin PASSES`: maps the gazetteer and times, PASSES times over the
/// same seeded inputs, (1) 10,000 nearest-place lookups within 50 km, half within 30 km of a
/// random place and half anywhere on the sphere, and (2) `PlaceNamer.update` on every fix of a
/// 100,000-fix drive at 15 m/s (one fix a second, so a lookup every 14 fixes or so).
///
/// Prints `places=… lookups=… lookup_ns=… fixes=… fix_ns=… namer_lookups=… named=…
/// drive_rss_kib=… rss_kib=…`: how much of the mapped table is resident in this process after
/// the first drive, and after everything (the pages the lookups touched). The malloc counter's difference between two PASSES counts is
/// the allocations of the lookups alone: the points and the drive are made before the first.
func runPlaces(_ path: String, passes: Int) throws(Errno) -> Int32 {
    let cold = try coldPages(path)
    try MappedFile.evictFromPageCache(path: path)
    let file = try MappedFile(path: path)
    let table: PlaceTable
    do {
        table = try file.withBytes { (bytes) throws(PlaceTableError) in try PlaceTable(bytes) }
    } catch {
        try? FileDescriptor.standardError.writeAll("trackbench: \(path): \(error.description)\n")
        return 1
    }
    // A drive north-east from Tübingen, weaving a little, 15 m a second.
    var drive: [Coordinate] = []
    var here = Coordinate(latitudeNanodegrees: 48_522_660_000, longitudeNanodegrees: 9_052_220_000)
    for step in 0..<100_000 {
        drive.append(here)
        let heading = 45 + 30 * Math.sin(Double(step) / 300)
        here = Geodesic.direct(from: here, azimuthDegrees: heading, distanceMetres: 15)
    }
    var points: [Coordinate] = []
    var named = 0
    var lookupNanoseconds: Int64 = 0
    var fixNanoseconds: Int64 = 0
    var namerLookups = 0
    var driveResident = 0
    for _ in 0..<passes {
        file.withBytes { bytes in
            var namer = PlaceNamer()
            let driveStart = SystemClock.monotonic()
            for point in drive { namer.update(point, approximate: false, allowed: true, table: table, bytes: bytes) }
            fixNanoseconds += SystemClock.monotonic().nanoseconds - driveStart.nanoseconds
            namerLookups += namer.lookupCount
        }
        if driveResident == 0 {
            // Measured before the points are drawn: drawing them reads random places.
            driveResident = file.cachedPageCount() * 4
            points = makePoints(table, file)
        }
        file.withBytes { bytes in
            let start = SystemClock.monotonic()
            for point in points where table.nearest(to: point, withinMetres: 50_000, in: bytes) != nil { named += 1 }
            lookupNanoseconds += SystemClock.monotonic().nanoseconds - start.nanoseconds
        }
    }
    let resident = file.cachedPageCount() * 4
    print("places=\(table.placeCount) lookups=\(points.count * passes) lookup_ns=\(lookupNanoseconds) "
        + "fixes=\(drive.count * passes) fix_ns=\(fixNanoseconds) namer_lookups=\(namerLookups) named=\(named) "
        + "drive_read_kib=\(driveResident) read_kib=\(resident) size_kib=\(file.count / 1024) "
        + "cold_lookup_pages=\(cold.pages) cold_lookups=\(cold.lookups)")
    return 0
}

/// Pages one lookup reads from storage: for each of 20 seeded places, the file is evicted from
/// the page cache, mapped afresh (the header page read) and looked up once 5 km from that
/// place; the pages that came into the cache (mincore) are what it read. Returns the total
/// and the lookups.
func coldPages(_ path: String) throws(Errno) -> (pages: Int, lookups: Int) {
    // The query positions come from a plain read of the file, so choosing them maps nothing.
    let copy = try FileDescriptor.readWholeFile(path)
    guard let layout = try? PlaceTable(copy.span) else { return (0, 0) }
    var random = PlacesRandom(state: 7)
    var total = 0
    for _ in 0..<20 {
        let place = layout.position(Int(random.next() % UInt64(layout.placeCount)), in: copy.span)
        let point = Geodesic.direct(from: place.coordinate, azimuthDegrees: random.unit() * 360, distanceMetres: 5_000)
        try MappedFile.evictFromPageCache(path: path)
        let file = try MappedFile(path: path)
        guard let table = file.withBytes({ (bytes) -> PlaceTable? in try? PlaceTable(bytes) }) else { return (0, 0) }
        let before = file.cachedPageCount()
        _ = file.withBytes { bytes in table.nearest(to: point, withinMetres: 50_000, in: bytes) }
        total += file.cachedPageCount() - before
    }
    return (total, 20)
}

/// 10,000 seeded points: half within 30 km of a random place, half anywhere on the sphere.
func makePoints(_ table: PlaceTable, _ file: borrowing MappedFile) -> [Coordinate] {
    var points: [Coordinate] = []
    var random = PlacesRandom(state: 2026)
    file.withBytes { bytes in
        for index in 0..<10_000 {
            if index % 2 == 0 {
                let place = table.position(Int(random.next() % UInt64(table.placeCount)), in: bytes)
                points.append(Geodesic.direct(from: place.coordinate, azimuthDegrees: random.unit() * 360,
                                              distanceMetres: random.unit() * 30_000))
            } else {
                let latitude = Math.atan2Degrees(2 * random.unit() - 1, 1) * 2 / 1.5707963267948966 * 45
                points.append(Coordinate(latitudeNanodegrees: Int64(latitude * 1e9),
                                         longitudeNanodegrees: Int64((random.unit() * 360 - 180) * 1e9)))
            }
        }
    }
    return points
}

/// The Rss of this process's mappings of `path`, from /proc/self/smaps, in KiB (−1 unknown).
func residentKibibytes(of path: String) -> Int {
    guard let text = try? FileDescriptor.readWholeFile("/proc/self/smaps") else { return -1 }
    var inside = false
    var total = 0
    for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
        if let first = line.first, first.isHexDigit, line.contains("-") {
            inside = line.hasSuffix(path)
        } else if inside, line.hasPrefix("Rss:") {
            total += Int(line.split(separator: " ")[1]) ?? 0
        }
    }
    return total
}

/// SplitMix64, seeded: the same points every run.
struct PlacesRandom {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }
}
