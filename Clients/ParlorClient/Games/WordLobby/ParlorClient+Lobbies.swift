import ParlorRules
import ParlorWire

// The word lobby and catalog operations (seed `word-lobby-functions.md`), typed.

extension ParlorClient {
    public func createLobby(user: LobbyUserArguments, rounds: Int? = nil) async throws(ParlorClientError) -> CreateLobbyResult {
        try await call(Operation.createLobby, CreateLobbyArguments(user: user, rounds: rounds))
    }

    public func joinLobby(code: String, user: LobbyUserArguments) async throws(ParlorClientError) -> JoinLobbyResult {
        try await call(Operation.joinLobby, JoinLobbyArguments(lobbyCode: code, user: user))
    }

    /// Starts a round (creator only): `gameId` from the catalog, or nil for the lobby's next game.
    public func startLobbyGame(lobbyId: String, gameId: String? = nil) async throws(ParlorClientError) {
        _ = try await call(Operation.startLobbyGame, StartLobbyGameArguments(lobbyId: lobbyId, gameId: gameId))
    }

    public func submitWord(lobbyId: String, word: String) async throws(ParlorClientError) -> WordVerdictResult {
        try await call(Operation.submitWord, SubmitWordArguments(lobbyId: lobbyId, word: word))
    }

    public func leaveLobby(lobbyId: String) async throws(ParlorClientError) {
        _ = try await call(Operation.leaveLobby, LobbyIdArguments(lobbyId: lobbyId))
    }

    /// The catalog, or `.unchanged` when `since` is already its version.
    public func getCatalog(since: Int? = nil) async throws(ParlorClientError) -> CatalogResult {
        try await call(Operation.getCatalog, GetCatalogArguments(since: since))
    }

    /// The lobby's public view and the caller's own words, as they change; `.deleted` then the end when
    /// the lobby goes. Survives reconnects like ``observeRoom(code:)``.
    public func observeLobby(lobbyId: String) async throws(ParlorClientError) -> AsyncStream<LobbyUpdate> {
        try await follow(.lobby, key: lobbyId)
    }

    /// Starts a rematch of a finished match (the creator only): a new lobby with the same seats. Answers
    /// its code; asking again answers the same one.
    public func rematchLobby(lobbyId: String) async throws(ParlorClientError) -> String {
        let result = try await call(Operation.rematchLobby, LobbyIdArguments(lobbyId: lobbyId))
        return result.code
    }

    /// Takes `userId`'s seat away (the lobby's creator only).
    public func removeLobbyPlayer(lobbyId: String, userId: UserID) async throws(ParlorClientError) {
        _ = try await call(Operation.removeLobbyPlayer, RemoveLobbyPlayerArguments(lobbyId: lobbyId, userId: userId))
    }

    /// A lobby's public view by its code, without a seat: no words during a round, no private events.
    public func watchLobby(code: String) async throws(ParlorClientError) -> AsyncStream<LobbyUpdate> {
        try await follow(.watchedLobby, key: code)
    }
}
