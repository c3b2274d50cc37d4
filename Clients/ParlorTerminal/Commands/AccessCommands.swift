import ArgumentParser
import Foundation
import ParlorClient
import ParlorRules
import ParlorWire

// Who may join and watch a game, for every kind (its code says which): the host's invitations, lock,
// unlock and handing the host role over. Creating a private game and joining with an invitation are
// the create and join commands' `--private`, `--spectators` and `--invite` (`ClientOptions`).

/// `parlor invite CODE`: an invitation to your private game, as a link and a token.
public struct Invite: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Invite someone to your private game: prints the invitation to pass to their join command's --invite.",
        discussion: """
            Only the game's host invites. The invitation opens that game only and stops working after \\
            --ttl seconds (a day unless told; at most 7 days). The other player joins with \\
            `parlor darts join CODE --invite TOKEN` (any game's join takes --invite, and the browser's \\
            link /join/CODE?invite=… as well as the token).
            """)

    @Argument(help: "The game's code.") public var code: String
    @Option(help: ArgumentHelp("Seconds the invitation works for (1–604800).", valueName: "seconds")) public var ttl: Int?
    @OptionGroup public var options: ClientOptions

    public init() {}

    public func validate() throws {
        if let ttl { try Validation.range(ttl, 1...CreateInviteArguments.maxTTLSeconds, option: "--ttl") }
    }

    public func run() async throws {
        try await OneShot.run(options) { client throws(ParlorClientError) in
            let invite = try await client.createInvite(code: code, ttlSeconds: ttl)
            return OneShot.Outcome(
                jsonLine: AccessCommands.jsonLine(invite),
                sentence: "Invitation to \(invite.code), until \(invite.expiresAt): --invite \(invite.invite)\nLink: \(invite.link)")
        }
    }
}

/// `parlor lock CODE`: nobody new joins your game.
public struct Lock: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Lock your game once everyone is in: nobody new joins; its players still come back.")

    @Argument(help: "The game's code.") public var code: String
    @OptionGroup public var options: ClientOptions

    public init() {}

    public func run() async throws {
        try await OneShot.run(options) { client throws(ParlorClientError) in
            AccessCommands.outcome(try await client.lockGame(code: code))
        }
    }
}

/// `parlor unlock CODE`: your game takes new players again.
public struct Unlock: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(abstract: "Unlock your game: new players may join again.")

    @Argument(help: "The game's code.") public var code: String
    @OptionGroup public var options: ClientOptions

    public init() {}

    public func run() async throws {
        try await OneShot.run(options) { client throws(ParlorClientError) in
            AccessCommands.outcome(try await client.unlockGame(code: code))
        }
    }
}

/// `parlor hand-over CODE USER_ID`: another player of your game becomes its host.
public struct HandOver: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "hand-over",
        abstract: "Make another player of your game its host (they start, remove players, lock and invite from then on).")

    @Argument(help: "The game's code.") public var code: String
    @Argument(help: "The new host's user id (as the game's view shows it).") public var userId: String
    @OptionGroup public var options: ClientOptions

    public init() {}

    public func validate() throws {
        guard UserID(userId) != nil else { throw ValidationError("USER_ID must be a user id such as 0b6f…-… (a UUID), got \(userId).") }
    }

    public func run() async throws {
        guard let user = UserID(userId) else { throw ExitCode.validationFailure }
        try await OneShot.run(options) { client throws(ParlorClientError) in
            AccessCommands.outcome(try await client.transferHost(code: code, to: user))
        }
    }
}

enum AccessCommands {
    static let commands: [any ParsableCommand.Type] = [Invite.self, Lock.self, Unlock.self, HandOver.self]

    static func outcome(_ access: GameAccessView) -> OneShot.Outcome {
        let who = access.spectators == .allowed ? "anyone may watch" : access.spectators == .signedIn ? "accounts may watch" : "nobody else may watch"
        let sentence = "\(access.code): \(access.private ? "private" : "open"), \(access.locked ? "locked" : "unlocked"), \(who)"
            + (access.host.map { "; host \($0.rawValue)" } ?? "") + "."
        return OneShot.Outcome(jsonLine: jsonLine(access), sentence: sentence)
    }

    static func jsonLine(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return #"{"event":"error","message":"The answer could not be written as JSON."}"# }
        return String(decoding: data, as: UTF8.self)
    }

    /// The invitation in `text`: the token itself, or a link (`…/join/CODE?invite=TOKEN`) that carries it.
    static func invite(in text: String) -> String {
        guard let range = text.range(of: "invite=") else { return text }
        let rest = text[range.upperBound...]
        return String(rest.prefix { $0 != "&" && $0 != "#" })
    }
}
