import ParlorRules
import ParlorWire

/// The word lobby operations, shared by the WebSocket session and the callable HTTP functions. Each takes
/// the signed-in caller and returns the encoded result, or throws the wire error the client sees.
struct LobbyService: Sendable {
    let directory: LobbyDirectory
    let environment: LobbyEnvironment
    let capacity: Int

    func createLobby(_ args: CreateLobbyArguments, by caller: UserID) async throws(WireError) -> EncodedJSON {
        let code = try directory.reserveCode()
        let lobby: WordLobby
        do {
            lobby = try WordLobby.create(
                lobbyId: directory.newLobbyID(), code: code, creator: caller, profile: args.user.profile,
                capacity: capacity, at: environment.clock.now)
        } catch {
            directory.release(code)
            throw WireError(error)
        }
        do {
            try await environment.store.saveLobby(lobby)
        } catch {
            directory.release(code)
            throw environment.storeFailure(error, operation: "create lobby \(lobby.lobbyId)")
        }
        let actor: LobbyActor
        do {
            actor = try LobbyActor(lobby: lobby, environment: environment)
        } catch {
            directory.release(code)
            throw error
        }
        directory.install(actor)
        return try Self.encode(CreateLobbyResult(lobbyId: lobby.lobbyId, lobbyCode: code))
    }

    func joinLobby(_ args: JoinLobbyArguments, by caller: UserID) async throws(WireError) -> EncodedJSON {
        let code: LobbyCode
        do {
            code = try LobbyCode(validating: args.lobbyCode)
        } catch {
            throw WireError(error)
        }
        guard let id = directory.lobbyID(code: code), let actor = directory.lobby(id: id) else {
            throw WireError(.lobbyNotFound, "No lobby has the code \(code).")
        }
        try await actor.join(args.user.profile, by: caller)
        return try Self.encode(JoinLobbyResult(lobbyId: id))
    }

    func startGame(lobbyId: String, gameId: String?, by caller: UserID) async throws(WireError) -> EncodedJSON {
        try await lobby(lobbyId).startGame(gameId: gameId, by: caller)
        return .null
    }

    func submitWord(_ args: SubmitWordArguments, by caller: UserID) async throws(WireError) -> EncodedJSON {
        let verdict = try await lobby(args.lobbyId).submitWord(args.word, by: caller)
        return try Self.encode(WordVerdictResult(verdict))
    }

    func leaveLobby(_ args: LobbyIdArguments, by caller: UserID) async throws(WireError) -> EncodedJSON {
        try await lobby(args.lobbyId).leave(by: caller)
        return .null
    }

    /// Members only: during a round the stream carries the member's own words.
    func observe(lobbyId: String, by caller: UserID) async throws(WireError) -> FeedSubscription {
        try await lobby(lobbyId).subscribe(user: caller)
    }

    /// The reply to `observeLobby`: `{subscription, serverTime}`. The server's clock is read now, fresh,
    /// whereas the first `lobby` event may be a version published a while ago.
    func observeReply(topic: Int) throws(WireError) -> EncodedJSON {
        try Self.encode(LobbySubscribed(subscription: topic, serverTime: environment.clock.now.iso8601))
    }

    /// The timer for `timer`'s round fired.
    func roundDue(_ timer: LobbyTimers.Timer) async {
        await directory.lobby(id: timer.lobbyId)?.endRound(timer.round)
    }

    private func lobby(_ id: String) throws(WireError) -> LobbyActor {
        guard let actor = directory.lobby(id: id) else { throw WireError(LobbyError.notFound(.lobby(id))) }
        return actor
    }

    private struct LobbySubscribed: Encodable {
        let subscription: Int
        let serverTime: String
    }

    static func encode(_ value: some Encodable) throws(WireError) -> EncodedJSON {
        do {
            return try EncodedJSON(value)
        } catch {
            throw WireError.internalError("The reply could not be encoded.")
        }
    }
}
