import TrackCore

extension StatusModel.PlaceFacts {
    /// `place     2.8 km NE of Tübingen, Baden-Wurttemberg, DE (approximate; 3 lookups in 155210
    /// places)`, or why there is none: `withheld (denied; …)`, `no gazetteer: PATH: ERROR`,
    /// `none yet (…)`, `off`. The JSON: `"place":{"gazetteer":true,"places":155210,"lookups":3,
    /// "text":"in Tübingen, …"}`, `text` left out whenever no place may be shown.
    func report(to report: inout StatusReport, _ privacy: StatusModel.PrivacyFacts) {
        report.line("place")
        report.object("place")
        defer { report.endObject() }
        guard enabled else {
            report.flag("enabled", false, ifFalse: "off ([places] enabled = no)")
            return
        }
        report.string("file", file, shown: .json)
        if let problem {
            report.flag("gazetteer", false, ifFalse: "no gazetteer: ")
            report.string("problem", problem)
            return
        }
        report.flag("gazetteer", true, shown: .json)
        if let shown {
            report.words { shown.write(to: &$0) }
            report.member("text") { shown.writeJSON(to: &$0) }
            report.words(privacy.disclosure == .approximate ? " (approximate; " : " (")
        } else if !privacy.disclosure.allowsPosition {
            report.name(nil, permissionName(privacy.permission.state), "withheld (", "; ")
        } else {
            report.words("none yet (")
        }
        report.count("lookups", lookups, "", lookups == 1 ? " lookup in " : " lookups in ")
        report.count("places", placeCount ?? 0, "", " places)")
    }
}
