/// What one line typed into a lobby means. On the interactive screen a line is a word unless it starts
/// with `/` (`/start [GAMEID]`, `/leave`, `/quit`), so no key needed for commands collides with typing;
/// a script sends one command per line (`word WORD`, `start [GAMEID]`, `leave`, `lobby`, `quit`).
public enum LobbyInput: Sendable, Equatable {
    case action(LobbyAction)
    /// Print the lobby again (scripts).
    case showLobby
    /// Take the seat of the player with this name away (the creator), once confirmed on screen.
    case kick(name: String)

    public static let typedUsage = "/start [GAMEID], /kick NAME, /rematch, /leave or /quit"
    /// What `/help` lists after what typing does.
    static let helpCommands = "/start [GAMEID] starts a round (the creator; `parlor lobby games` lists the ids), /kick NAME removes a player and /rematch starts the next match with the same players (the creator), /leave gives up your seat, /quit keeps it"
    public static let scriptUsage = "word WORD, start [GAMEID], kick NAME, rematch, leave, lobby or quit"

    /// A line typed on the interactive screen; nil for a blank line.
    public static func parseTyped(_ line: String) -> Result<LobbyInput, ScriptCommandError>? {
        let text = line.trimmedLine
        guard !text.isEmpty else { return nil }
        guard text.hasPrefix("/") else { return .success(.action(.submitWord(text))) }
        let words = text.dropFirst().split(whereSeparator: \.isWhitespace).map(String.init)
        let verb = words.first?.lowercased() ?? ""
        let rest = Array(words.dropFirst())
        switch verb {
        case "start": return start(rest, verb: "/start")
        case "kick": return kick(rest, verb: "/kick")
        case "rematch": return noArguments(rest, .action(.rematch), verb: "/rematch")
        case "leave": return noArguments(rest, .action(.leave), verb: "/leave")
        case "quit", "exit": return noArguments(rest, .action(.quit), verb: "/\(verb)")
        default:
            return .failure(ScriptCommandError("Unknown command \"/\(verb)\"; use \(typedUsage)."))
        }
    }

    /// A line of a script; nil for a blank line.
    public static func parseScript(_ line: String) -> Result<LobbyInput, ScriptCommandError>? {
        let text = line.trimmedLine
        guard !text.isEmpty else { return nil }
        let verbEnd = text.firstIndex(where: \.isWhitespace) ?? text.endIndex
        let verb = text[..<verbEnd].lowercased()
        let remainder = String(text[verbEnd...]).trimmedLine
        let rest = remainder.split(whereSeparator: \.isWhitespace).map(String.init)
        switch verb {
        case "word":
            // Everything after the verb: category answers may have spaces ("Double bass").
            guard !remainder.isEmpty else { return .failure(ScriptCommandError("word needs the word, e.g. \"word alpha\".")) }
            return .success(.action(.submitWord(remainder)))
        case "start": return start(rest, verb: verb)
        case "kick": return kick(rest, verb: verb)
        case "rematch": return noArguments(rest, .action(.rematch), verb: verb)
        case "leave": return noArguments(rest, .action(.leave), verb: verb)
        case "quit", "exit": return noArguments(rest, .action(.quit), verb: verb)
        case "lobby", "show": return noArguments(rest, .showLobby, verb: verb)
        default:
            return .failure(ScriptCommandError("Unknown command \"\(verb)\"; use \(scriptUsage)."))
        }
    }

    private static func start(_ rest: [String], verb: String) -> Result<LobbyInput, ScriptCommandError> {
        switch rest.count {
        case 0: .success(.action(.start(gameId: nil)))
        case 1: .success(.action(.start(gameId: rest[0])))
        default: .failure(ScriptCommandError("\(verb) takes at most one game id (got \"\(rest.joined(separator: " "))\")."))
        }
    }

    /// The name may have spaces ("Mary Ann").
    private static func kick(_ rest: [String], verb: String) -> Result<LobbyInput, ScriptCommandError> {
        rest.isEmpty ? .failure(ScriptCommandError("\(verb) needs the player's name, e.g. \"\(verb) Bo\".")) : .success(.kick(name: rest.joined(separator: " ")))
    }

    private static func noArguments(_ rest: [String], _ input: LobbyInput, verb: String) -> Result<LobbyInput, ScriptCommandError> {
        rest.isEmpty ? .success(input) : .failure(ScriptCommandError("\(verb) takes no arguments (got \"\(rest.joined(separator: " "))\")."))
    }
}
