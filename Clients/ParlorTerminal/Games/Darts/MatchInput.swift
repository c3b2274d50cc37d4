import ParlorRules

/// What one line typed into a darts match means. On the interactive screen a line is a visit — its
/// darts (`T20 T20 D16`) or its total (`100`) — unless it starts with `/` (`/edit VISIT`, `/undo`,
/// `/guest NAME`, `/kick NAME`, `/start`, `/rematch`, `/leave`, `/quit`); a script sends one command per line
/// (`visit VISIT`, `edit [#N] VISIT`, `undo [#N]`, `guest NAME`, `kick NAME`, `start`, `rematch`, `leave`, `match`, `quit`).
public enum MatchInput: Sendable, Equatable {
    /// A visit for whoever is to throw.
    case visit(darts: [String]?, total: Int?)
    /// A replacement for the last visit (`visit`: its number, when given).
    case edit(visit: Int?, darts: [String]?, total: Int?)
    /// Take the last visit back (`visit`: its number, when given).
    case undo(visit: Int?)
    case addGuest(name: String)
    case start
    /// The next match of a finished one (the host).
    case rematch
    /// Remove the player or guest of this name (the host, before the start).
    case kick(name: String)
    case leave
    case quit
    /// Print the match again (scripts).
    case showMatch

    public static let typedUsage = "darts (T20 T20 D16) or a total (100), /edit VISIT, /undo, /guest NAME, /kick NAME, /start, /rematch, /leave or /quit"
    /// What `/help` lists after what typing does.
    static let helpCommands = "↑ edits the last visit, /undo takes it back, /guest NAME adds a guest and /kick NAME removes one or a player before the start, /start starts and /rematch plays a finished match again (the host), /leave gives up your seat, /quit keeps it"
    public static let scriptUsage = "visit VISIT, edit [#N] VISIT, undo [#N], guest NAME, kick NAME, start, rematch, leave, match or quit"

    /// A line typed on the interactive screen; nil for a blank line.
    public static func parseTyped(_ line: String) -> Result<MatchInput, ScriptCommandError>? {
        let text = line.trimmedLine
        guard !text.isEmpty else { return nil }
        guard text.hasPrefix("/") else { return visit(text).map { .visit(darts: $0.darts, total: $0.total) } }
        return command(String(text.dropFirst()), prefix: "/", usage: typedUsage)
    }

    /// A line of a script; nil for a blank line.
    public static func parseScript(_ line: String) -> Result<MatchInput, ScriptCommandError>? {
        let text = line.trimmedLine
        guard !text.isEmpty else { return nil }
        return command(text, prefix: "", usage: scriptUsage)
    }

    private static func command(_ text: String, prefix: String, usage: String) -> Result<MatchInput, ScriptCommandError> {
        let verbEnd = text.firstIndex(where: \.isWhitespace) ?? text.endIndex
        let verb = text[..<verbEnd].lowercased()
        let rest = String(text[verbEnd...]).trimmedLine
        switch verb {
        case "visit":
            return visit(rest).map { .visit(darts: $0.darts, total: $0.total) }
        case "edit":
            return visitNumber(rest, example: "\(prefix)edit #7 T20 T20 D16").flatMap { number, visitText in
                visit(visitText).map { .edit(visit: number, darts: $0.darts, total: $0.total) }
            }
        case "undo":
            return visitNumber(rest, example: "\(prefix)undo #7").flatMap { number, more in
                noArguments(more, .undo(visit: number), verb: prefix + verb)
            }
        case "guest":
            guard !rest.isEmpty else { return .failure(ScriptCommandError("\(prefix)guest needs a name, e.g. \"\(prefix)guest Gil\".")) }
            return .success(.addGuest(name: rest))
        case "kick": return KickRule.name(rest, verb: prefix + verb).map { .kick(name: $0) }
        case "start": return noArguments(rest, .start, verb: prefix + verb)
        case "rematch": return noArguments(rest, .rematch, verb: prefix + verb)
        case "leave": return noArguments(rest, .leave, verb: prefix + verb)
        case "quit", "exit": return noArguments(rest, .quit, verb: prefix + verb)
        case "match", "show": return noArguments(rest, .showMatch, verb: prefix + verb)
        default:
            return .failure(ScriptCommandError("Unknown command \"\(prefix)\(verb)\"; use \(usage)."))
        }
    }

    /// A leading `#N` (the visit's number, as the match shows it) and what follows it.
    private static func visitNumber(_ text: String, example: String) -> Result<(Int?, String), ScriptCommandError> {
        guard text.hasPrefix("#") else { return .success((nil, text)) }
        let numberEnd = text.firstIndex(where: \.isWhitespace) ?? text.endIndex
        guard let number = Int(text[text.index(after: text.startIndex)..<numberEnd]), number > 0 else {
            let verb = example.prefix { !$0.isWhitespace }
            return .failure(ScriptCommandError("\(verb) #N takes the visit's number, e.g. \"\(example)\"."))
        }
        return .success((number, String(text[numberEnd...]).trimmedLine))
    }

    /// A visit as typed: one number is its total; otherwise its darts, separated by spaces or commas,
    /// sent as written (the server names a dart it cannot read).
    static func visit(_ text: String) -> Result<(darts: [String]?, total: Int?), ScriptCommandError> {
        let words = text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        guard !words.isEmpty else {
            return .failure(ScriptCommandError("A visit is its darts (T20 T20 D16) or its total (100)."))
        }
        if words.count == 1, words[0].allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let total = Int(words[0]) else {
                return .failure(ScriptCommandError("\(words[0].prefix(12)) is not a visit's total (0 to 180)."))
            }
            return .success((nil, total))
        }
        guard words.count <= DartsLimits.dartsPerVisit else {
            return .failure(ScriptCommandError("A visit has at most \(DartsLimits.dartsPerVisit) darts (got \(words.count))."))
        }
        return .success((words, nil))
    }

    private static func noArguments(_ rest: String, _ input: MatchInput, verb: String) -> Result<MatchInput, ScriptCommandError> {
        rest.isEmpty ? .success(input) : .failure(ScriptCommandError("\(verb) takes no arguments (got \"\(rest)\")."))
    }
}
