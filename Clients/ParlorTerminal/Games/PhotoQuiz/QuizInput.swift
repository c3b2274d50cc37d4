/// What one line typed into a photo quiz means. On the interactive screen a line is a guess — `lat, lon`
/// (`48.85, 2.35`) or a place's name (`Lyon`, `Kyoto, JP`) — unless it starts with `/` (`/start`,
/// `/reveal`, `/next`, `/end`, `/rematch`, `/kick NAME`, `/leave`, `/quit`); a script sends one command
/// per line (`guess WHERE`, `start`, `reveal`, `next`, `end`, `rematch`, `kick NAME`, `leave`, `quiz`, `quit`).
public enum QuizInput: Sendable, Equatable {
    /// A guess as typed; `QuizGuessText` reads it.
    case guess(String)
    case start
    case reveal
    case next
    case end
    /// The next quiz of a finished one (the host).
    case rematch
    /// Remove the player of this name (the host).
    case kick(name: String)
    case leave
    case quit
    /// Print the quiz again (scripts).
    case showQuiz

    public static let typedUsage = "a guess (48.85, 2.35 or Lyon or Kyoto, JP), /start, /reveal, /next, /end, /rematch, /kick NAME, /leave or /quit"
    /// What `/help` lists after what typing does.
    static let helpCommands = "/start, /reveal, /next and /end run the quiz and /rematch plays again with new photos and /kick NAME removes a player (the host), /leave gives up your seat, /quit keeps it"
    public static let scriptUsage = "guess WHERE, start, reveal, next, end, rematch, kick NAME, leave, quiz or quit"

    /// A line typed on the interactive screen; nil for a blank line.
    public static func parseTyped(_ line: String) -> Result<QuizInput, ScriptCommandError>? {
        let text = line.trimmedLine
        guard !text.isEmpty else { return nil }
        guard text.hasPrefix("/") else { return .success(.guess(text)) }
        return command(String(text.dropFirst()), prefix: "/", usage: typedUsage)
    }

    /// A line of a script; nil for a blank line.
    public static func parseScript(_ line: String) -> Result<QuizInput, ScriptCommandError>? {
        let text = line.trimmedLine
        guard !text.isEmpty else { return nil }
        return command(text, prefix: "", usage: scriptUsage)
    }

    private static func command(_ text: String, prefix: String, usage: String) -> Result<QuizInput, ScriptCommandError> {
        let verbEnd = text.firstIndex(where: \.isWhitespace) ?? text.endIndex
        let verb = text[..<verbEnd].lowercased()
        let rest = String(text[verbEnd...]).trimmedLine
        let plain: QuizInput
        switch verb {
        case "guess":
            guard !rest.isEmpty else {
                return .failure(ScriptCommandError("\(prefix)guess needs a place or a position, e.g. \"\(prefix)guess Lyon\" or \"\(prefix)guess 48.85, 2.35\"."))
            }
            return .success(.guess(rest))
        case "kick": return KickRule.name(rest, verb: prefix + verb).map { .kick(name: $0) }
        case "start": plain = .start
        case "reveal": plain = .reveal
        case "next": plain = .next
        case "end": plain = .end
        case "rematch": plain = .rematch
        case "leave": plain = .leave
        case "quit", "exit": plain = .quit
        case "quiz", "show": plain = .showQuiz
        default:
            return .failure(ScriptCommandError("Unknown command \"\(prefix)\(verb)\"; use \(usage)."))
        }
        return rest.isEmpty ? .success(plain) : .failure(ScriptCommandError("\(prefix)\(verb) takes no arguments (got \"\(rest)\")."))
    }
}
