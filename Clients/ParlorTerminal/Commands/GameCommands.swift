import ArgumentParser
import ParlorRules

/// A game as the `parlor` command offers it: its commands, the shape of its codes, and how
/// `parlor watch CODE` follows one. Each game's folder has one; `ParlorCommand.games`, the terminal's
/// one registration line, lists them.
protocol GameCommands: SendableMetatype {
    /// What `parlor --help` says it plays ("darts matches").
    static var title: String { get }
    /// Its paragraph in `parlor --help`: how to start, join and watch one.
    static var summary: String { get }
    /// Its commands: `parlor darts …` as one, or rummy's, the first game, at the top (`parlor create`).
    static var commands: [any ParsableCommand.Type] { get }
    /// Its codes, which say their kind.
    static var codes: CodeShape { get }
    /// Follows the game `code` names, without taking a seat (`parlor watch CODE`).
    static func watch(code: String, options: ClientOptions) async throws
    /// How `parlor replay CODE` draws a recorded view as this game's screen; nil (the default) shows
    /// each step's action instead.
    static var replay: ReplayDrawing? { get }
}

extension GameCommands {
    static var replay: ReplayDrawing? { nil }
}

/// What one kind of game's codes look like to people: how `parlor watch` tells a code's game by its
/// shape, and how a command given another game's code points to the right command.
struct CodeShape: Sendable {
    /// Whose codes these are, as a sentence names them: "a darts match".
    let owner: String
    /// Their shape in words: "5 characters, a digit first".
    let shape: String
    /// One, for the sentences: "3QX7K".
    let example: String
    /// The command that joins one, before the code: `["parlor", "darts", "join"]`.
    let join: [String]
    /// The code as its game reads it when `text` has the shape of the codes given out now, else nil.
    let current: @Sendable (String) -> String?
    /// The code when `text` is one its game still reads (given out before codes said their kind), else nil.
    let readable: @Sendable (String) -> String?

    init<Code: ShortCode>(_: Code.Type, owner: String, shape: String, example: String, join: [String]) {
        self.owner = owner
        self.shape = shape
        self.example = example
        self.join = join
        current = { Code.hasShape($0) ? (try? Code(parsing: $0))?.rawValue : nil }
        readable = { (try? Code(parsing: $0))?.rawValue }
    }

    /// "GDTS is a word lobby's code (4 letters); use `parlor lobby join GDTS`."
    func pointer(to code: String) -> String {
        "\(code) is \(owner)'s code (\(shape)); use `\((join + [code]).joined(separator: " "))`."
    }
}

extension ParlorCommand {
    /// The game whose code `text` is, and the code as it reads it: a game whose codes now have that
    /// shape, else one that still reads it (a code given out before codes said their kind).
    static func game(ofCode text: String) -> (game: any GameCommands.Type, code: String)? {
        for game in games {
            if let code = game.codes.current(text) { return (game, code) }
        }
        for game in games {
            if let code = game.codes.readable(text) { return (game, code) }
        }
        return nil
    }
}
