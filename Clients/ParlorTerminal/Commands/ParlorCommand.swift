import ArgumentParser
import ParlorWire

/// `parlor`: play Parlor rummy rooms from a terminal.
public struct ParlorCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "parlor",
        abstract: "Play Parlor rummy rooms, word lobbies, darts matches and photo quizzes from the terminal.",
        discussion: """
            create, join and watch show the room full screen on a terminal and update it live; the keys \
            are on screen. Without a terminal (or with --json) they print one JSON object per line and \
            read commands from stdin: ready, unready, start, score POINTS [--round N] [--player NAME], \
            next, leave, room, quit.

            parlor lobby create / join CODE play the word game; see parlor help lobby.

            parlor darts create / join CODE / watch CODE keep a live darts scoreboard; see parlor help darts.

            parlor quiz create / join CODE / watch CODE / upload CODE FILE… play a photo quiz; see parlor help quiz.

            Your identity is kept per server in $XDG_CONFIG_HOME/parlor/tokens.json \
            (~/.config/parlor/tokens.json), so running parlor again gets you your seat back.
            """,
        version: ParlorRelease.version,
        subcommands: [
            Create.self, Join.self, Watch.self, Ready.self, Start.self, Score.self, Next.self, Leave.self, Show.self, Lobby.self, Darts.self,
            Quiz.self, History.self,
        ])

    public init() {}
}
