import ArgumentParser
import Foundation
import ParlorClient
import ParlorRules
import ParlorWire

/// `parlor history`: your finished games of every kind — rummy rooms, word matches, darts matches —
/// newest first, a page at a time.
public struct History: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "List your finished games: which game, when, who played, how you did.",
        discussion: """
            Newest first, --limit at a time (20 unless told); parlor replay CODE plays one again. When there are more, the last line says \\
            the --before to give for the next page. With --json (or when not on a terminal) the server's \\
            answer is printed as one JSON object: {games, nextBefore?}.
            """)

    @Option(help: ArgumentHelp("Only games finished before this time (ISO-8601, as a page's nextBefore).", valueName: "time"))
    public var before: String?

    @Option(help: ArgumentHelp("Games per page (1–100).", valueName: "count"))
    public var limit: Int?

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func validate() throws {
        if let limit { try Validation.range(limit, ListGamesArguments.limits, option: "--limit") }
        if let before, Instant(iso8601: before) == nil {
            throw ValidationError("--before must be an ISO-8601 time such as 2026-01-30T18:00:00.000Z (got \(before)).")
        }
    }

    public func run() async throws {
        let client = try options.makeClient()
        let result = await client.whileConnected { _ -> Result<ListHistoryResult, ParlorClientError> in
            do throws(ParlorClientError) {
                return .success(try await client.listHistory(before: before, limit: limit))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let page):
            StandardStreams.printLine(options.printsText ? Self.table(page, me: client.userId).joined(separator: "\n") : Self.jsonLine(page))
        case .failure(let error):
            StandardStreams.printError(error.description)
            throw ExitCode.failure
        }
    }

    /// One line per game: when (UTC), the game, its code, the players with their points, your result.
    static func table(_ page: ListHistoryResult, me: UserID?) -> [String] {
        guard !page.games.isEmpty else { return ["No finished games yet."] }
        var lines = ["When (UTC)        Game   Code    You   Players"]
        for game in page.games {
            let when = String(game.finishedAt.prefix(16)).replacingOccurrences(of: "T", with: " ")
            let players = game.players.map { player in
                (player.userId == me ? "you" : player.name) + " \(player.points)"
            }.joined(separator: ", ")
            lines.append(
                TextWidth.pad(when, to: 17) + " " + TextWidth.pad(kindName(game.kind), to: 6) + " " + TextWidth.pad(game.code, to: 7)
                    + " " + TextWidth.pad(game.result, to: 5) + " " + players)
        }
        if let next = page.nextBefore { lines.append("More: parlor history --before \(next)") }
        if let game = page.games.first { lines.append("Replay one: parlor replay CODE (parlor replay \(game.code))") }
        return lines
    }

    /// The short name of a kind the server names (`word-lobby` → word).
    static func kindName(_ kind: String) -> String {
        switch kind {
        case "word-lobby": "word"
        case "photo-quiz": "quiz"
        default: kind
        }
    }

    static func jsonLine(_ page: ListHistoryResult) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(page) else { return #"{"event":"error","message":"The history could not be written as JSON."}"# }
        return String(decoding: data, as: UTF8.self)
    }
}
