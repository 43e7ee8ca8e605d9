/// The command an SSH client asked for when its key's `command="trackctl log send
/// --from-ssh-command"` runs instead (sshd puts the request in `$SSH_ORIGINAL_COMMAND`): only
/// `trackctl log send` with at most `--after CURSOR` passes, e.g.
/// "trackctl log send --after 3:1234:77:9f3a11c2" → the cursor text; "rm -rf /" → refused.
enum SSHOriginalCommand {
    /// Why a requested command was refused.
    enum Refusal: Error, Equatable {
        /// No command was requested (a plain `ssh tracker`).
        case none
        /// Something other than `trackctl log send [--after CURSOR]`.
        case notAllowed(String)

        var description: String {
            switch self {
            case .none: return "this key may only run `trackctl log send [--after CURSOR]`; no command was given"
            case .notAllowed(let command):
                return "this key may only run `trackctl log send [--after CURSOR]`, not '" + command + "'"
            }
        }
    }

    /// The `--after` value of `command` (nil: from the start), or why it is refused.
    static func cursor(_ command: String?) -> Result<String?, Refusal> {
        guard let command else { return .failure(.none) }
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
        guard words.count >= 3, words[0] == "trackctl" || words[0].utf8.reversed().starts(with: "/trackctl".utf8.reversed()),
              words[1] == "log", words[2] == "send" else { return .failure(.notAllowed(command)) }
        switch words.count {
        case 3: return .success(nil)
        case 5 where words[3] == "--after": return .success(words[4])
        default: return .failure(.notAllowed(command))
        }
    }
}
