import ArgumentParser

/// `parlor watch CODE`: any game's screen without taking a seat, told by the code's shape — every kind
/// of game's codes have a shape of their own.
public struct Watch: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Watch any game as a spectator; its code says which game it is.",
        discussion: """
            The code says which: \(ParlorCommand.games.map { "\($0.codes.shape) \($0.codes.owner) (\($0.codes.example))" }.joined(separator: ", ")). \
            If you already have a seat in the game, your keys still work; in a game with secrets you see \
            what every player sees.
            """)

    @Argument(help: ArgumentHelp("The game's code.", valueName: "code"))
    public var code: String

    @OptionGroup public var options: ClientOptions

    public init() {}

    public mutating func validate() throws {
        guard let (_, code) = ParlorCommand.game(ofCode: code) else { throw ValidationError(Self.notACode(code)) }
        self.code = code
    }

    public func run() async throws {
        guard let (game, code) = ParlorCommand.game(ofCode: code) else { throw ValidationError(Self.notACode(code)) }
        try await game.watch(code: code, options: options)
    }

    /// "\"AB\" is not a game code: a room's has 6 characters (A1B2C3), …".
    static func notACode(_ text: String) -> String {
        let shapes = ParlorCommand.games.map { "\($0.codes.owner)'s \($0.codes.shape) (\($0.codes.example))" }
        return "\"\(text.trimmingCharacters(in: .whitespaces))\" is not a game code: " + shapes.joined(separator: ", ") + "."
    }
}
