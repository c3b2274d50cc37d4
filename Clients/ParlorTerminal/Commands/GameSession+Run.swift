import ArgumentParser
import Foundation
import ParlorClient

extension GameSession {
    /// Runs the session these options ask for; a status other than 0 ends the command with it.
    static func run(_ options: ClientOptions, _ entry: Game.Entry) async throws {
        var session = GameSession(
            client: try options.makeClient(), entry: entry, mode: options.isInteractive ? .interactive : .scripted)
        if options.server != ClientOptions.defaultServer { session.clientArguments += ["--server", options.server] }
        if let profile = options.profile { session.clientArguments += ["--profile", profile] }
        let status = await session.run()
        if status != 0 { throw ExitCode(status) }
    }
}

/// The name to sit down with when none is given: the login name, capitalized.
enum DefaultName {
    /// The shortest any game seats (a word lobby's username), so the default fits every game.
    static let maxCharacters = 30

    static var current: String {
        let user = ProcessInfo.processInfo.environment["USER"] ?? ""
        guard let first = user.first, user.count <= maxCharacters else { return "Player" }
        return first.uppercased() + user.dropFirst()
    }
}
