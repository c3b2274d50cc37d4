import ArgumentParser
import Foundation
import ParlorClient
import ParlorRules
import ParlorWire

/// `parlor lobby games`: the server's catalog, so the creator knows which GAMEID to `/start`.
public struct LobbyGames: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "games",
        abstract: "List the games a lobby can play (their ids go after /start).",
        discussion: "Prints a table; with --json, one JSON object (the catalog without the category games' answers).")

    @OptionGroup public var options: ClientOptions

    public init() {}

    public func run() async throws {
        let client = try options.makeClient()
        let result = await client.whileConnected { _ -> Result<CatalogResult, ParlorClientError> in
            do throws(ParlorClientError) {
                return .success(try await client.getCatalog())
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(.catalog(let catalog)):
            StandardStreams.printLine(options.json ? Self.jsonLine(catalog) : Self.table(catalog).joined(separator: "\n"))
        case .success(.unchanged):
            StandardStreams.printError("The server answered with no catalog.")
            throw ExitCode.failure
        case .failure(let error):
            StandardStreams.printError(error.description)
            throw ExitCode.failure
        }
    }

    /// One line per game under its mode and level: id, time limit, name.
    static func table(_ catalog: Catalog) -> [String] {
        let idWidth = min(catalog.playOrder.map { TextWidth.of($0.id) }.max() ?? 0, 40)
        var lines: [String] = []
        for mode in catalog.gameModes {
            for level in mode.levels {
                lines.append("\(mode.name) · \(level.name)")
                for game in level.games {
                    let seconds = TextWidth.pad("\(game.timeLimit) s", to: 6, alignRight: true)
                    lines.append("  " + TextWidth.pad(game.id, to: idWidth) + "  " + seconds + "  " + game.name)
                }
            }
        }
        return lines
    }

    static func jsonLine(_ catalog: Catalog) -> String {
        JSONLine.encode(CatalogListing(catalog))
    }
}
