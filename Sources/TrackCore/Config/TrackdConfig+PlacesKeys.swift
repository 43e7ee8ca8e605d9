// The keys of [places]: the offline gazetteer the daemon names its position with.

let placesSection = ConfigSection("places", """
    Place names: the offline gazetteer (GeoNames' populated places, docs/places.md) that names \
    the position in `trackctl where` and `status`, e.g. `2.8 km NE of Tübingen, \
    Baden-Wurttemberg, DE`. Only while tracking is allowed; in approximate mode only the \
    snapped grid cell is looked up. A missing or damaged table leaves trackd tracking without \
    names.
    """, [
    ConfigKey("enabled", .choice(["no", "yes"]), default: "yes", example: "no",
              "`no`: no place names; the table is not mapped at all.") {
        $0.places.enabled = $1.number == 1
    },
    ConfigKey("file", .path(maxBytes: 4095, optional: false), default: "/usr/share/trackd/places.bin",
              example: "/data/trackd/places.bin",
              """
              The table, as `scripts/build-places` compiles it; mapped read-only, so only the \
              pages a lookup touches are read. SIGHUP maps it again (a new table takes effect).
              """) { $0.places.file = $1.text },
    ConfigKey("min-move", .distance(1_000...100_000_000), default: "200", example: "500",
              """
              Metres to move from the last lookup before the place is looked up again (the \
              phone's throttle); in approximate mode a lookup happens only in a new grid cell.
              """) { $0.places.minimumMoveMillimetres = $1.number },
])
