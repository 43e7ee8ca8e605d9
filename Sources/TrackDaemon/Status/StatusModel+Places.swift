import TrackCore

/// The `place` line of `trackctl status` and the `place` object of `status --json`.
extension StatusModel {
    /// `place     2.8 km NE of Tübingen, Baden-Wurttemberg, DE (approximate; 3 lookups)`, or why
    /// there is none: `withheld (denied)`, `no gazetteer: PATH: ERROR`, `none yet`, `off`.
    func writePlaceText(to line: inout TextBuffer) {
        line.append("place     ")
        guard places.enabled else {
            line.append("off ([places] enabled = no)")
            return
        }
        if let problem = places.problem {
            line.append("no gazetteer: ")
            line.append(string: problem)
            return
        }
        if let words = places.shown {
            words.write(to: &line)
            line.append(privacy.disclosure == .approximate ? " (approximate; " : " (")
        } else if !privacy.disclosure.allowsPosition {
            line.append("withheld (")
            line.append(permissionName(privacy.permission.state))
            line.append("; ")
        } else {
            line.append("none yet (")
        }
        line.append(integer: Int64(places.lookups))
        line.append(places.lookups == 1 ? " lookup in " : " lookups in ")
        line.append(integer: Int64(places.placeCount ?? 0))
        line.append(" places)")
    }

    /// `,"place":{"gazetteer":true,"places":155210,"lookups":3,"text":"in Tübingen, …"}`;
    /// `"gazetteer":false` with `"problem"` without a table; `"enabled":false` when off. `text`
    /// is left out whenever no place may be shown.
    func writePlaceJSON(to line: inout TextBuffer) {
        line.append(",\"place\":{")
        guard places.enabled else {
            line.append("\"enabled\":false}")
            return
        }
        line.append("\"file\":")
        line.appendJSONString(places.file)
        if let problem = places.problem {
            line.append(",\"gazetteer\":false,\"problem\":")
            line.appendJSONString(problem)
            line.append("}")
            return
        }
        line.append(",\"gazetteer\":true")
        appendCounter(&line, "places", places.placeCount ?? 0)
        appendCounter(&line, "lookups", places.lookups)
        if let words = places.shown {
            line.append(",\"text\":")
            words.writeJSON(to: &line)
        }
        line.append("}")
    }
}
