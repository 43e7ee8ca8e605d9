import TrackCore
import TrackIO

/// The places service: the offline gazetteer (`[places] file`, by default
/// `/usr/share/trackd/places.bin`) mapped read-only at start-up, and the throttled namer that
/// names the daemon's position from it, e.g. `2.8 km NE of Tübingen, Baden-Wurttemberg, DE`.
///
/// Per filtered fix `observe` costs one geodesic (the distance moved since the last lookup) and
/// looks up again only after `[places] min-move` (200 m); in approximate mode only when the
/// snapped grid cell changes, and for the cell's centre, never the precise position; while
/// tracking is not allowed it forgets the name. Nothing here allocates after `open`. A missing
/// or damaged table is a `problem` (journal, status: "no gazetteer"); trackd tracks on.
///
/// Example: at start-up `PlaceService(config.places)`; per fix
/// `places.observe(fix.position, disclosure: .precise)`; then `places.shown(.precise)?.string`
/// is `"in Tübingen, Baden-Wurttemberg, DE"`.
struct PlaceService: ~Copyable {
    /// The `[places]` keys in force.
    private(set) var settings: TrackdConfig.Places
    /// The mapped table; nil when disabled or when it could not be opened.
    private var gazetteer: MappedFile?
    /// The table's header, read once at open.
    private(set) var table: PlaceTable?
    /// Why there is no gazetteer, e.g. `/usr/share/trackd/places.bin: No such file or
    /// directory`; nil when it is mapped or when place names are off.
    private(set) var problem: String?
    /// The throttle and the current name.
    private(set) var namer: PlaceNamer
    /// The current name's words; empty before the first allowed fix and while not allowed.
    private(set) var words = PlaceWords()
    /// Whether `words` name an approximate (snapped) position.
    private(set) var wordsApproximate = false

    /// Maps the table `settings` name (allocates: start-up).
    init(_ settings: TrackdConfig.Places) {
        self.settings = settings
        namer = PlaceNamer(minimumMoveMetres: Double(settings.minimumMoveMillimetres) / 1000)
        open()
    }

    /// Applies a reload's `[places]` and maps the table again (even when its path is the same,
    /// so a table replaced on disk takes effect); the name is looked up afresh on the next fix.
    /// Allocates.
    mutating func apply(_ plan: ReloadPlan) {
        settings = plan.config.places
        namer = PlaceNamer(minimumMoveMetres: Double(settings.minimumMoveMillimetres) / 1000)
        open()
    }

    /// What status shows of the gazetteer and the name as `disclosure` lets it out.
    func facts(_ disclosure: Disclosure) -> StatusModel.PlaceFacts {
        StatusModel.PlaceFacts(enabled: settings.enabled, file: settings.file, problem: problem, shown: shown(disclosure),
                               lookups: lookupCount, placeCount: table?.placeCount)
    }

    /// Maps the table; says in the journal why positions go unnamed when it cannot.
    private mutating func open() {
        mapTable()
        if let problem { Journal.say("places: " + problem + "; no gazetteer: positions are not named, tracking goes on") }
    }

    private mutating func mapTable() {
        gazetteer = nil
        table = nil
        problem = nil
        words.removeAll()
        guard settings.enabled else { return }
        let file: MappedFile
        do {
            file = try MappedFile(path: settings.file)
        } catch {
            problem = settings.file + ": " + error.message
            return
        }
        do {
            table = try file.withBytes { (bytes) throws(PlaceTableError) in try PlaceTable(bytes) }
        } catch {
            problem = settings.file + ": " + error.description
            return
        }
        // Reading the header faulted in its pages (and the kernel may map a large folio
        // around them): they leave resident memory until a lookup needs them.
        file.releasePages()
        gazetteer = consume file
    }

    /// Takes a filtered fix's precise `position` and what the permission lets out now.
    /// Allocates nothing.
    mutating func observe(_ position: Coordinate?, disclosure: Disclosure) {
        guard let table else { return }
        guard disclosure.allowsPosition else {
            if namer.name != nil { namer.reset() }
            words.removeAll()
            return
        }
        guard let position else { return }
        let approximate = disclosure == .approximate
        var line = TextBuffer()
        let looked: Bool? = gazetteer?.withBytes { bytes in
            guard namer.update(position, approximate: approximate, allowed: true, table: table, bytes: bytes) else {
                return false
            }
            namer.name?.write(to: &line, bytes: bytes)
            return true
        }
        guard looked == true else { return }
        // The pages the lookup touched leave resident memory (the page cache keeps them).
        gazetteer?.releasePages()
        words.set(&line)
        wordsApproximate = approximate
    }

    /// The words that may be shown under `disclosure`: none when tracking is not allowed, and
    /// none looked up under another accuracy than the one in force (a precise name never shows
    /// in approximate mode, even before the next fix).
    func shown(_ disclosure: Disclosure) -> PlaceWords? {
        guard disclosure.allowsPosition, !words.isEmpty, wordsApproximate == (disclosure == .approximate) else { return nil }
        return words
    }

    /// Lookups since start or the last reload.
    var lookupCount: Int { namer.lookupCount }
}
