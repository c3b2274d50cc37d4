import ParlorRules

/// The commands a script types, one per line, when `parlor` is not attached to a terminal: the same
/// actions as the keys of the interactive view.
///
///     ready | unready | start | score POINTS [--round N] [--player NAME] | next | kick NAME | rematch | leave | room | quit
public enum ScriptCommand: Sendable, Equatable {
    case action(RoomAction)
    /// Print the room again.
    case showRoom

    public static let usage = "ready, unready, start, score POINTS [--round N] [--player NAME], next, kick NAME, rematch, leave, room or quit"

    /// Parses one line; nil for a blank line. Defaults come from `state`: the current round, oneself.
    public static func parse(_ line: String, in state: RoomScreenState) -> Result<ScriptCommand, ScriptCommandError>? {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let verb = words.first?.lowercased() else { return nil }
        let rest = Array(words.dropFirst())
        switch verb {
        case "ready": return noArguments(rest, .action(.setReady(true)), verb)
        case "unready": return noArguments(rest, .action(.setReady(false)), verb)
        case "start": return noArguments(rest, .action(.start), verb)
        case "next": return noArguments(rest, .action(.nextRound), verb)
        case "rematch": return noArguments(rest, .action(.rematch), verb)
        case "leave": return noArguments(rest, .action(.leave), verb)
        case "quit", "exit": return noArguments(rest, .action(.quit), verb)
        case "room", "show": return noArguments(rest, .showRoom, verb)
        case "score": return score(rest, in: state)
        case "kick":
            // A script's line is its confirmation.
            let name = rest.joined(separator: " ")
            guard !name.isEmpty else { return .failure(ScriptCommandError("kick needs the player's name, e.g. \"kick Bo\".")) }
            guard let player = findPlayer(name, in: state) else {
                return .failure(ScriptCommandError("There is no player \"\(name)\" in room \(state.code)."))
            }
            return .success(.action(.kick(player)))
        default:
            return .failure(ScriptCommandError("Unknown command \"\(verb)\"; use \(usage)."))
        }
    }

    private static func noArguments(_ rest: [String], _ command: ScriptCommand, _ verb: String) -> Result<ScriptCommand, ScriptCommandError> {
        rest.isEmpty ? .success(command) : .failure(ScriptCommandError("\(verb) takes no arguments (got \"\(rest.joined(separator: " "))\")."))
    }

    private static func score(_ words: [String], in state: RoomScreenState) -> Result<ScriptCommand, ScriptCommandError> {
        var points: Int?
        var round = state.room?.currentRound
        var player = state.me
        var index = 0
        while index < words.count {
            let word = words[index]
            switch word {
            case "--round", "--player":
                guard index + 1 < words.count else { return .failure(ScriptCommandError("\(word) needs a value.")) }
                let value = words[index + 1]
                if word == "--round" {
                    guard let number = Int(value) else { return .failure(ScriptCommandError("--round must be a number (got \"\(value)\").")) }
                    round = number
                } else {
                    guard let found = findPlayer(value, in: state) else {
                        return .failure(ScriptCommandError("There is no player \"\(value)\" in room \(state.code)."))
                    }
                    player = found
                }
                index += 2
            default:
                guard points == nil, let number = Int(word) else {
                    return .failure(ScriptCommandError("score takes the points as a number, then --round N or --player NAME (got \"\(word)\")."))
                }
                points = number
                index += 1
            }
        }
        guard let points else { return .failure(ScriptCommandError("score needs the points, e.g. \"score 25\".")) }
        guard let round else { return .failure(ScriptCommandError("The room has not loaded yet; try again in a moment.")) }
        guard let player else { return .failure(ScriptCommandError("Not signed in yet; try again in a moment.")) }
        return .success(.action(.submitScore(player: player, round: round, score: points)))
    }

    /// A player by name (any case) or by id.
    static func findPlayer(_ text: String, in state: RoomScreenState) -> UserID? {
        guard let players = state.room?.players else { return UserID(text) }
        if let id = UserID(text), players.contains(where: { $0.id == id }) { return id }
        let lowered = text.lowercased()
        return players.first { $0.name.lowercased() == lowered }?.id
    }
}
