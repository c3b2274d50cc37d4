import ArgumentParser
import ParlorClient
import ParlorTerminal
import ParlorWire
import Testing

/// `parlor lobby …` on the command line: what each subcommand reads, its defaults, and the sentences a
/// mistake gets.
@Suite("parlor lobby arguments")
struct LobbyArgumentTests {
    @Test("lobby create reads the name, colour and emoji, with the shared client options")
    func create() throws {
        let command = try parse(["lobby", "create", "--name", "Ann", "--color", "2", "--emoji", "4", "--json"], as: LobbyCreate.self)
        #expect(command.profile.user == LobbyUserArguments(username: "Ann", colorNumber: 2, emojiNumber: 4))
        #expect(command.options.json)
        #expect(command.options.server == "ws://localhost:8080")
        let defaults = try parse(["lobby", "create", "--name", "Bo"], as: LobbyCreate.self)
        #expect(defaults.profile.user.colorNumber == 0 && defaults.profile.user.emojiNumber == 0)
    }

    @Test("lobby join takes the code in any case, trimmed, and a profile")
    func join() throws {
        let command = try parse(
            ["lobby", "join", " gdts", "--name", "Bo", "--emoji", "63", "--profile", "bo", "--server", "ws://127.0.0.1:9000"],
            as: LobbyJoin.self)
        #expect(command.code == "GDTS")
        #expect(command.profile.user == LobbyUserArguments(username: "Bo", colorNumber: 0, emojiNumber: 63))
        #expect(command.options.profile == "bo")
        #expect(try command.options.configuration(environment: ["HOME": "/home/bo"]).server.url == "ws://127.0.0.1:9000/ws")
    }

    @Test("lobby games takes only the client options")
    func games() throws {
        #expect(try parse(["lobby", "games", "--json"], as: LobbyGames.self).options.json)
    }

    @Test("Mistakes read as sentences")
    func mistakes() {
        #expect(complaint(["lobby", "join", "ABC", "--name", "Bo"]) == "Lobby code must be exactly 4 characters (got 3).")
        #expect(complaint(["lobby", "join", "AB1D", "--name", "Bo"])?.hasPrefix("Lobby code contains \"1\"") == true)
        #expect(complaint(["lobby", "create", "--name", "Ann", "--color", "16"]) == "--color must be between 0 and 15 (got 16).")
        #expect(complaint(["lobby", "create", "--name", "Ann", "--emoji", "64"]) == "--emoji must be between 0 and 63 (got 64).")
        #expect(complaint(["lobby", "create", "--name", "  "]) == "--name must not be empty.")
        #expect(complaint(["lobby", "create", "--name", String(repeating: "a", count: 31)]) == "--name must be at most 30 characters (got 31).")
        #expect(complaint(["lobby", "join"])?.contains("Missing expected argument '<code>'") == true)
    }
}
