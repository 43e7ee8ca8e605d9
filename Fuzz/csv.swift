// Fuzz target `csv`: a track CSV as `trackctl log import FILE.csv` reads it (`TrackCSV.parse`
// through `LogImport.records`). Checks beyond "no crash":
// * an error names a line that exists;
// * every fix lies on the globe;
// * imported records read back unchanged from the log codec;
// * imported records exported as CSV (`trackctl log export --format csv`) import again to the
//   same records, as the CSV writer promises.
import TrackCore
@testable import TrackctlCommands

func fuzzTarget(_ input: [UInt8]) {
    let lineCount = input.count(where: { $0 == 0x0A }) + 1
    do {
        _ = try TrackCSV.parse(input)
    } catch {
        check(error.line >= 1 && error.line <= lineCount, "error at line \(error.line) of \(lineCount)")
        check(!error.reason.isEmpty, "an error without a reason")
    }
    let records: [LogRecord]
    switch LogImport.records(input, file: "track.csv") {
    case .failure(let message):
        check(startsWithBytes(message.text, "track.csv:"), "import error without the file: \(message.text)")
        return
    case .success(let imported):
        records = imported
    }
    for case .fix(let fix) in records {
        check(abs(fix.position.latitudeE7) <= 900_000_000, "latitude out of range")
        check(abs(fix.position.longitudeE7) <= 1_800_000_000, "longitude out of range")
    }
    let readBack = LogRoundTrip.reencode(records)
    check(readBack.error == nil, "imported records did not read back: \(String(describing: readBack.error))")
    check(readBack.records == records, "imported records read back differently")
    let exported = ExportBytes.of(records, CSVWriter())
    switch LogImport.records(exported, file: "export.csv") {
    case .failure(let message): check(false, "an exported CSV does not import: \(message.text)")
    case .success(let again): check(again == records, "an exported CSV imports to other records")
    }
}
