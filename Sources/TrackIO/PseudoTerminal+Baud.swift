extension PseudoTerminal {
    /// The baud the pair's line is set to — what the program on the slave side (trackd's
    /// `SerialPort`) chose, since both ends share one set of terminal settings; nil for a
    /// rate outside `SerialPort.supportedBaudRates`. A simulated receiver compares it with its
    /// own rate, e.g. 9600 after trackd opened the port at 9600.
    public func lineBaud() throws(Errno) -> Int? {
        try SerialPort.currentBaud(of: slave)
    }
}
