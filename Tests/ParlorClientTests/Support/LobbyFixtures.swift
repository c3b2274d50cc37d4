import ParlorRules
import ParlorTerminal
import ParlorWire

/// Word lobbies in given states, built with the real rules so they are views a server could send.
enum LobbyFixtures {
    static let ann = RoomFixtures.ann
    static let bo = RoomFixtures.bo
    static let cy = RoomFixtures.cy
    static let lobbyId = "BD8T95IYI6cf77tvFA1m"
    static let code = "GDTS"
    /// When the round starts, on the server's clock.
    static let start = Instant(millisecondsSinceEpoch: 1_800_000_000_000)

    static let greek = Game(
        id: "category-greek-letters-fast", name: "Greek Letters Sprint",
        description: "The Greek alphabet against a short clock.",
        instructions: "Name as many letters of the Greek alphabet as you can before time runs out. Spelling counts; capitals do not.",
        timeLimit: 30, kind: .category(answerBank: ["Alpha", "Beta", "Gamma", "Delta", "Omega"]))

    static let startsWithP = Game(
        id: "word-lightning-start-p", name: "Lightning: Starts with P", timeLimit: 30, kind: .word(letterPosition: .start, targetLetter: "P"))

    /// Ann (creator, colour 0, fox), Bo (colour 8, panda), Cy (colour 3, frog); no round yet.
    static func open() throws -> WordLobby {
        var lobby = try WordLobby.create(
            lobbyId: lobbyId, code: LobbyCode(uncheckedRawValue: code), creator: ann,
            profile: LobbyProfile(username: "Ann", colorNumber: 0, emojiNumber: 5), at: start.adding(seconds: -60))
        _ = try lobby.join(bo, profile: LobbyProfile(username: "Bo", colorNumber: 8, emojiNumber: 7))
        _ = try lobby.join(cy, profile: LobbyProfile(username: "Cy", colorNumber: 3, emojiNumber: 13))
        return lobby
    }

    /// Round 1 of `game` running: Ann has alpha and beta, Bo alpha and a rejected omegas, Cy nothing.
    static func inRound(_ game: Game = greek) throws -> WordLobby {
        var lobby = try open()
        _ = try lobby.startGame(.game(game), by: ann, at: start)
        let words = SetWordList(["pirate", "parrot"])
        for (word, player) in [("alpha", ann), ("Beta", ann), ("alpha", bo), ("omegas", bo)] {
            _ = try lobby.submitWord(word, by: player, at: start.adding(seconds: 5), wordList: words)
        }
        return lobby
    }

    /// Round 1 over: Ann +3 (alpha shared 1, Beta unique 2), Bo +1, Cy 0.
    static func afterRound() throws -> WordLobby {
        var lobby = try inRound()
        _ = lobby.endRound(1, at: start.adding(seconds: 30))
        return lobby
    }

    /// The `lobby` event as the server sends it, published at `serverTime`.
    static func view(_ lobby: WordLobby, serverTime: Instant) -> LobbyView {
        var view = LobbyView(lobby)
        view.serverTime = serverTime
        return view
    }

    static func words(_ lobby: WordLobby, for player: UserID) -> PlayerWordsView {
        PlayerWordsView(lobby.privateView(for: player))
    }

    /// The screen as `me` sees `lobby`, on a device whose clock is `skew` ms behind the server's, at
    /// `secondsIn` seconds after the round's start (server time).
    static func screen(
        _ lobby: WordLobby, me: UserID = bo, secondsIn: Int = 7, skew: Int64 = 120_000
    ) -> LobbyScreenState {
        let published = start.adding(seconds: 5)
        var state = LobbyScreenState(server: "ws://localhost:8080/ws", code: code, lobbyId: lobbyId, me: me)
        state.connection = .connected(userId: me)
        _ = state.receive(view(lobby, serverTime: published), at: published.adding(milliseconds: -skew))
        _ = state.receive(words(lobby, for: me))
        state.now = start.adding(seconds: secondsIn).adding(milliseconds: -skew)
        return state
    }
}
