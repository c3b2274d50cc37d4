import ArgumentParser
import ParlorWire

/// `parlor`: play Parlor's games from a terminal.
public struct ParlorCommand: AsyncParsableCommand {
    /// The games `parlor` plays, each from its folder under `Games/`: the terminal's one registration line.
    static let games: [any GameCommands.Type] = [RummyCommands.self, LobbyCommands.self, DartsCommands.self, QuizCommands.self, TicTacToeCommands.self]

    public static let configuration = CommandConfiguration(
        commandName: "parlor",
        abstract: "Play Parlor's \(games.map { $0.title }.joined(separator: ", ")) from the terminal.",
        discussion: games.map { $0.summary }.joined(separator: "\n\n") + """


            parlor watch CODE watches any game; its code says which. parlor history lists your finished games; \
            parlor replay CODE plays one again, step by step. \
            parlor account export downloads everything the server holds about you; parlor account delete \
            deletes your account.

            Any create command takes --private (join by invitation only) and --spectators allowed|signedIn|none; \
            any join command takes --invite (the host's parlor invite CODE, or the browser's link). The \
            host runs parlor lock CODE / parlor unlock CODE once everyone is in, and parlor hand-over \
            CODE USER_ID.

            Your identity is kept per server in $XDG_CONFIG_HOME/parlor/tokens.json \
            (~/.config/parlor/tokens.json), so running parlor again gets you your seat back. On a server \
            that signs players in with their accounts, parlor login --jwt-file FILE (or $PARLOR_JWT) signs \
            in with the account instead.
            """,
        version: ParlorRelease.version,
        subcommands: games.flatMap { $0.commands } + [Watch.self, History.self, Replay.self, Login.self, Logout.self, Account.self] + AccessCommands.commands)

    public init() {}
}
