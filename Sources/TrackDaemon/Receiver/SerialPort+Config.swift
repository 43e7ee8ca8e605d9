import TrackCore
import TrackIO

extension SerialPort.Configuration {
    /// The port `[receiver]` describes: its device (the board file's UART when trackd.conf
    /// names none), baud (nil for `auto`) and reopen backoff.
    init(_ receiver: TrackdConfig.Receiver, board: BoardMap) {
        var device = receiver.device
        if !receiver.deviceIsSet, let boardDevice = board.receiverDevice { device = boardDevice }
        let baud: Int?
        switch receiver.baud {
        case .auto: baud = nil
        case .fixed(let bitsPerSecond): baud = Int(bitsPerSecond)
        }
        self.init(path: device, baud: baud, reopenMinimumMilliseconds: receiver.reopenMinMilliseconds,
                  reopenMaximumMilliseconds: receiver.reopenMaxMilliseconds)
    }
}
