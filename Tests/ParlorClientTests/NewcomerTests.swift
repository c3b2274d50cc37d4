import ArgumentParser
import ParlorClient
import ParlorRules
@testable import ParlorTerminal
import ParlorWire
import Testing

/// What a newcomer runs into first: which server, who they are, a code of the wrong game, help, the
/// way back after quitting, the games list, and entering scores.
@Suite("parlor for a newcomer")
struct NewcomerTests {
    // MARK: Which server

    @Test("--server wins over PARLOR_SERVER, which wins over the default; a bad variable is named")
    func serverFromEnvironment() throws {
        let plain = try parse(["watch", "K7Q2MX"], as: Watch.self).options
        #expect(plain.server(environment: [:]) == "ws://localhost:8080")
        #expect(plain.server(environment: ["PARLOR_SERVER": "ws://10.0.0.5:9000"]) == "ws://10.0.0.5:9000")
        #expect(try plain.configuration(environment: ["PARLOR_SERVER": "ws://10.0.0.5:9000", "HOME": "/h"]).server.url == "ws://10.0.0.5:9000/ws")
        let flagged = try parse(["watch", "K7Q2MX", "--server", "ws://127.0.0.1:7000"], as: Watch.self).options
        #expect(flagged.server(environment: ["PARLOR_SERVER": "ws://10.0.0.5:9000"]) == "ws://127.0.0.1:7000")
        #expect(ClientOptions.serverVariable == "PARLOR_SERVER")
    }

    // MARK: Who you are

    @Test("Joining with --name where this identity already sits as someone else is refused in a sentence")
    func seatIdentity() throws {
        #expect(SeatIdentity.refusal(asked: "Bo", seated: "Ann", code: "T1HVYK", profile: nil)
            == "You are already seated as Ann in T1HVYK with this profile; use --profile to play as someone else "
            + "(or leave out --name to come back as Ann).")
        #expect(SeatIdentity.refusal(asked: "Bo", seated: "Ann", code: "T1HVYK", profile: "ann")?
            .hasPrefix("You are already seated as Ann in T1HVYK with the profile ann;") == true)
        #expect(SeatIdentity.refusal(asked: " ann ", seated: "Ann", code: "T1HVYK", profile: nil) == nil)
        #expect(try parse(["join", "T1HVYK"], as: Join.self).name == nil)
        #expect(try parse(["join", "T1HVYK", "--name", "Bo"], as: Join.self).name == "Bo")
    }

    @Test("Rejoining a lobby without --name/--color/--emoji keeps what this identity used there")
    func lobbyProfileKept() throws {
        let store = InMemoryTokenStore()
        var configuration = ParlorClientConfiguration()
        configuration.tokenStore = store
        configuration.profile = "bo"
        let memory = LobbyProfileMemory(configuration)
        #expect(memory.profile(inLobby: "GDTS") == nil)
        memory.remember(LobbyUserArguments(username: "Bo", colorNumber: 5, emojiNumber: 12), inLobby: "GDTS")

        let bare = try parse(["lobby", "join", "gdts"], as: LobbyJoin.self).profile.choice
        #expect(bare.user(remembered: memory.profile(inLobby: "GDTS")) == LobbyUserArguments(username: "Bo", colorNumber: 5, emojiNumber: 12))
        let recoloured = try parse(["lobby", "join", "GDTS", "--color", "2"], as: LobbyJoin.self).profile.choice
        #expect(recoloured.user(remembered: memory.profile(inLobby: "GDTS")) == LobbyUserArguments(username: "Bo", colorNumber: 2, emojiNumber: 12))
        // Another lobby, or another identity, remembers nothing.
        #expect(memory.profile(inLobby: "KQPW") == nil)
        configuration.profile = "cy"
        #expect(LobbyProfileMemory(configuration).profile(inLobby: "GDTS") == nil)
    }

    // MARK: The wrong game's code

    @Test("A lobby's, match's or quiz's code given to a room command points to the right command")
    func otherGamesCodes() {
        #expect(complaint(["join", "gdts"]) == "GDTS is a word lobby's code (4 letters); use `parlor lobby join GDTS`.")
        #expect(complaint(["join", "QX7KM"]) == "QX7KM is a darts match's code (5 characters); use `parlor darts join QX7KM`.")
        // `parlor watch` follows every kind of game, so a 5-character code is its business, not a mistake.
        #expect(complaint(["watch", "QWERT"]) == nil)
        #expect(complaint(["join", "ABC"]) == "Room code must be exactly 6 characters (got 3).")
    }

    // MARK: Help

    @Test("? and /help show the keys on every screen, and send nothing")
    func help() throws {
        var room = RoomScreenState(server: "ws://x/ws", code: "K7Q2MX", room: try RoomFixtures.inRoundTwo(), me: RoomFixtures.bo)
        #expect(room.handle(.character("?")) == nil)
        #expect(room.message?.text == RoomScreenState.helpText)
        room.message = nil
        for key: Key in [.character("/"), .character("h"), .character("e"), .character("l"), .character("p")] { _ = room.handle(key) }
        #expect(RoomScreen.text(room, width: 80, height: 20).dropLast().last == "  /help▏  Enter runs · Esc cancels · /help")
        #expect(room.handle(.enter) == nil)
        #expect(room.message?.text == RoomScreenState.helpText)
        room.room = try RoomFixtures.lobby()
        for key: Key in [.character("/"), .character("r"), .character("e"), .character("a"), .character("d"), .character("y")] { _ = room.handle(key) }
        #expect(room.handle(.enter) == .setReady(true))

        var lobby = LobbyFixtures.screen(try LobbyFixtures.inRound())
        for key: Key in [.character("/"), .character("h"), .character("e"), .character("l"), .character("p")] { _ = lobby.handle(key) }
        #expect(lobby.handle(.enter) == nil)
        #expect(lobby.message?.text.hasPrefix("Type a word and press Enter; or /start [GAMEID] starts a round") == true)
        var match = MatchFixtures.screen(try MatchFixtures.playing(["T20 T20 T20"]))
        _ = match.handle(.character("?"))
        #expect(match.handle(.enter) == nil)
        #expect(match.message?.text.hasPrefix("Type a visit (T20 T20 D16 or 100) and press Enter;") == true)
        var quiz = QuizFixtures.screen(try QuizFixtures.view("revealing"))
        _ = quiz.handle(.character("?"))
        #expect(quiz.handle(.enter) == nil)
        #expect(quiz.message?.text.hasPrefix("Type a guess (48.85, 2.35 or Lyon) and press Enter;") == true)
    }

    // MARK: The way back

    @Test("Quitting a room prints the command that comes back, seated or watching")
    func rummyFarewell() throws {
        let seated = SessionLogic(mode: .interactive, screen: RoomScreenState(
            server: "ws://x/ws", code: "K7Q2MX", room: try RoomFixtures.finished(), me: RoomFixtures.bo),
            clientArguments: ["--server", "ws://10.0.0.5:9000", "--profile", "bo"])
        #expect(seated.farewell(for: .quit, server: "ws://x/ws")
            == "You are still in room K7Q2MX; parlor join K7Q2MX --server ws://10.0.0.5:9000 --profile bo brings you back.")
        let watcher = SessionLogic(mode: .interactive, screen: RoomScreenState(
            server: "ws://x/ws", code: "K7Q2MX", room: try RoomFixtures.lobby(), me: UserID("00000000-0000-4000-8000-0000000000ee")))
        #expect(watcher.farewell(for: .quit, server: "ws://x/ws") == "parlor watch K7Q2MX watches room K7Q2MX again.")
        let dartsWatcher = GameSessionLogic<MatchGame>(
            mode: .interactive, screen: MatchFixtures.screen(try MatchFixtures.waiting(), me: RoomFixtures.cy), clientArguments: ["--profile", "cy"])
        #expect(dartsWatcher.farewell(for: .quit, server: "ws://x/ws") == "parlor darts watch QX7KM --profile cy watches match QX7KM again.")
        let dartsPlayer = GameSessionLogic<MatchGame>(mode: .interactive, screen: MatchFixtures.screen(try MatchFixtures.waiting()))
        #expect(dartsPlayer.farewell(for: .quit, server: "ws://x/ws") == "You are still in match QX7KM; parlor darts join QX7KM brings you back.")
    }

    // MARK: The games list

    @Test("lobby games --json lists the games without the category games' answers")
    func gamesWithoutAnswers() {
        let catalog = Catalog(version: 3, updatedAt: .epoch, gameModes: [
            GameMode(id: "category", name: "Category", levels: [
                Level(id: "easy", name: "Easy", difficulty: 1, games: [LobbyFixtures.greek]),
            ]),
        ])
        let line = LobbyGames.jsonLine(catalog)
        #expect(line.contains("\"answerCount\":"))
        #expect(line.contains("\"id\":\"\(LobbyFixtures.greek.id)\""))
        #expect(!line.contains("answerBank"))
        #expect(!line.contains("\"alpha\""))
        #expect(LobbyGames.table(catalog).first == "Category · Easy")
    }

    // MARK: Entering scores

    @Test("Score entry: no wrap-around, players enter only their own, the moderator confirms others'")
    func scoreEntry() throws {
        let room = try RoomFixtures.inRoundTwo()
        var bo = RoomScreenState(server: "ws://x/ws", code: "K7Q2MX", room: room, me: RoomFixtures.bo)
        _ = bo.handle(.up)
        #expect(bo.selectedPlayer?.name == "Bo")
        _ = bo.handle(.character("e"))
        #expect(bo.mode == .enteringScore(player: RoomFixtures.bo, round: 2, digits: ""))
        _ = bo.handle(.character("7"))
        #expect(bo.handle(.enter) == .submitScore(player: RoomFixtures.bo, round: 2, score: 7))

        var ann = RoomScreenState(server: "ws://x/ws", code: "K7Q2MX", room: room, me: RoomFixtures.ann)
        for _ in 0..<5 { _ = ann.handle(.down) }
        #expect(ann.selectedPlayer?.name == "Cy")
        _ = ann.handle(.character("e"))
        _ = ann.handle(.character("8"))
        _ = ann.handle(.character("0"))
        #expect(ann.handle(.enter) == nil)
        #expect(RoomScreen.text(ann, width: 90, height: 24).dropLast().last
            == "  Enter 80 for Cy in round 2? y enters it, any other key cancels.")
        #expect(ann.handle(.character("n")) == nil)
        #expect(ann.message?.text == "Nothing was entered.")
        _ = ann.handle(.character("e"))
        _ = ann.handle(.character("8"))
        _ = ann.handle(.enter)
        #expect(ann.handle(.character("y")) == .submitScore(player: RoomFixtures.cy, round: 2, score: 8))
    }

    @Test("After the end, leaving is not offered and l keeps your row in the results")
    func leaveAfterEnd() throws {
        var bo = RoomScreenState(server: "ws://x/ws", code: "K7Q2MX", room: try RoomFixtures.finished(), me: RoomFixtures.bo)
        #expect(bo.handle(.character("l")) == nil)
        #expect(bo.mode == .normal)
        #expect(bo.message?.text == "The game is over; your row stays in the results. q closes the screen.")
        #expect(RoomScreen.text(bo, width: 80, height: 30).last == "  [?] help  [q] quit")
    }
}
