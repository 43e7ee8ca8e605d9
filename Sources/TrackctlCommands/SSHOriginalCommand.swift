import TrackCore

/// The command an SSH client asked for when its key's `command="trackctl log send
/// --from-ssh-command"` runs instead (sshd puts the request in `$SSH_ORIGINAL_COMMAND`): only
/// `trackctl log send` with at most `--after CURSOR` passes, and, when the key's command also
/// says `--allow-prune`, `trackctl log prune --through CURSOR` with a real cursor (never
/// `start`). The log directory is always the key's, never the client's: a requested `--log`
/// is refused. E.g. "trackctl log send --after 3:1234:77:9f3a11c2" → send after that cursor;
/// "trackctl log prune --through 3:1234:77:9f3a11c2" → prune, if allowed; "rm -rf /" → refused.
enum SSHOriginalCommand {
    /// What a restricted key's client may ask for.
    enum Request: Equatable {
        /// `trackctl log send [--after CURSOR]`: the cursor text, nil for the whole log.
        case send(after: String?)
        /// `trackctl log prune --through CURSOR`.
        case prune(through: LogCursor)
    }

    /// Why a requested command was refused.
    enum Refusal: Error, Equatable {
        /// No command was requested (a plain `ssh tracker`).
        case none(allowPrune: Bool)
        /// Something other than the allowed commands.
        case notAllowed(String, allowPrune: Bool)

        var description: String {
            switch self {
            case .none(let allowPrune):
                return "this key may only run " + Refusal.allowed(allowPrune) + "; no command was given"
            case .notAllowed(let command, let allowPrune):
                return "this key may only run " + Refusal.allowed(allowPrune) + ", not '" + command + "'"
            }
        }

        static func allowed(_ allowPrune: Bool) -> String {
            allowPrune ? "`trackctl log send [--after CURSOR]` or `trackctl log prune --through CURSOR`"
                : "`trackctl log send [--after CURSOR]`"
        }
    }

    /// The `--after` value of a `log send` `command` (nil: from the start), or why it is refused.
    static func cursor(_ command: String?) -> Result<String?, Refusal> {
        switch request(command, allowPrune: false) {
        case .success(.send(let after)): return .success(after)
        case .success(.prune): return .failure(.notAllowed(command ?? "", allowPrune: false))
        case .failure(let refusal): return .failure(refusal)
        }
    }

    /// What `command` asks for, or why it is refused; prune only when `allowPrune`.
    static func request(_ command: String?, allowPrune: Bool) -> Result<Request, Refusal> {
        guard let command else { return .failure(.none(allowPrune: allowPrune)) }
        let words = split(command)
        let refused = Result<Request, Refusal>.failure(.notAllowed(command, allowPrune: allowPrune))
        guard words.count >= 3, words[0] == "trackctl" || words[0].utf8.reversed().starts(with: "/trackctl".utf8.reversed()),
              words[1] == "log" else { return refused }
        switch (words[2], words.count) {
        case ("send", 3): return .success(.send(after: nil))
        case ("send", 5) where words[3] == "--after": return .success(.send(after: words[4]))
        case ("prune", 5) where allowPrune && words[3] == "--through":
            // A cursor that names a chunk, not "start": pruning through nothing is no request.
            guard let cursor = LogCursor(text: words[4]), !cursor.isStart else { return refused }
            return .success(.prune(through: cursor))
        default: return refused
        }
    }

    /// The words of `command` split at spaces and tabs (sshd passes the client's string as is).
    static func split(_ command: String) -> [String] {
        var words: [String] = []
        var word: [UInt8] = []
        for byte in command.utf8 {
            if byte == 32 || byte == 9 {
                if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
                word = []
            } else {
                word.append(byte)
            }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }
}
