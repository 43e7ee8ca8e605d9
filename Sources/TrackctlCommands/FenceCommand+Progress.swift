import TrackIO

extension FenceCommand {
    /// `fence compile`'s progress line on a terminal: `fence compile: reading fences.geojson,
    /// 12.3 of 21.0 MB (58%)`, then `fence compile: writing fences.image (100000 fences)`.
    struct CompileProgress: FenceCompileObserver {
        var lines = ProgressLines()
        let path: String
        let image: String
        private var started = false

        init(path: String, image: String) {
            self.path = path
            self.image = image
        }

        mutating func reading(bytes: Int, total: Int?) {
            // The first line at once, then at most ten a second (the text only when drawn).
            guard !started || lines.isDue() else { return }
            var line = "fence compile: reading " + path + ", " + megabytes(bytes)
            if let total, total > 0 {
                line += " of " + megabytes(total) + " MB (" + String(min(bytes, total) * 100 / total) + "%)"
            } else {
                line += " MB"
            }
            lines.show(line, force: !started)
            started = true
        }

        mutating func writing(fences: Int) {
            lines.show("fence compile: writing " + image + " (" + String(fences) + " fences)", force: true)
        }

        /// `12.3`: megabytes (10⁶ bytes), one decimal.
        func megabytes(_ bytes: Int) -> String {
            let tenths = (bytes + 50_000) / 100_000
            return String(tenths / 10) + "." + String(tenths % 10)
        }
    }
}
