/// What trackd asks of the receiver (`[receiver]` in trackd.conf); nil parts are left as the
/// receiver has them.
public struct ReceiverSettings: Equatable, Sendable {
    /// Fix interval in ms (1000: 1 Hz, 200: 5 Hz); nil leaves the receiver's.
    public var fixIntervalMilliseconds: Int?
    /// Baud to move the receiver to once configured; nil stays at the baud it was found at.
    public var baud: Int?
    /// Sentences and their intervals; nil leaves the receiver's.
    public var sentences: SentenceRates?

    /// Settings; the defaults leave the receiver as it is.
    public init(fixIntervalMilliseconds: Int? = nil, baud: Int? = nil, sentences: SentenceRates? = nil) {
        self.fixIntervalMilliseconds = fixIntervalMilliseconds
        self.baud = baud
        self.sentences = sentences
    }

    /// trackd's defaults: 1 Hz, `SentenceRates.trackdDefault`, the baud as found.
    public static var trackdDefault: ReceiverSettings {
        ReceiverSettings(fixIntervalMilliseconds: 1000, sentences: .trackdDefault)
    }
}
