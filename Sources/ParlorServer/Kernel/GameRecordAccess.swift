import ParlorRules
import ParlorWire

extension GameHost {
    /// Refuses `user`, who is not a member of the game, what `policy` keeps from spectators (`doing`:
    /// "watch darts game 1234"): `none` admits nobody, `signedIn` only users linked to an account
    /// (`hello {jwt}`).
    func admitSpectator(_ user: UserID?, under policy: SpectatorPolicy, to doing: String) async throws(WireError) {
        switch policy {
        case .allowed:
            return
        case .none:
            throw WireError(.spectatorsNotAllowed, "Only its players may \(doing).")
        case .signedIn:
            let refusal = WireError(.spectatorsNotAllowed, "Only players and viewers signed in with an account may \(doing).")
            guard let user else { throw refusal }
            let linked: Bool
            do {
                linked = try await store.hasExternalIdentity(user)
            } catch {
                throw storeFailure(error, operation: "look up the account of \(user)")
            }
            guard linked else { throw refusal }
        }
    }

    /// Refuses `viewer` a finished game's record (`getGameRecord`, its exports) when the game, live,
    /// would have kept them out: a private game's record is its members' alone (`NOT_INVITED`), and a
    /// game whose spectators were refused or limited to signed-in users refuses its record alike
    /// (`SPECTATORS_NOT_ALLOWED`). Whoever was a member of the game at any step may always read it.
    func admitRecordViewer(_ viewer: UserID, to record: StoredGameRecord) async throws(WireError) {
        guard let stored = record.access else { return }
        let access: GameAccess
        do throws(StoreError) {
            access = try StoredJSON.decode(GameAccess.self, from: stored, what: "access settings", location: "game record \(record.id)")
        } catch {
            throw storeFailure(error, operation: "read the access settings of record \(record.id)")
        }
        guard access.isPrivate || access.spectators != .allowed else { return }
        if try await wasMember(viewer, of: record) { return }
        let game = "\(Game.kind.noun) \(record.code)"
        if access.isPrivate {
            throw WireError(.notInvited, "The \(game) was private: only its players may read its record.")
        }
        try await admitSpectator(viewer, under: access.spectators, to: "read the record of \(game)")
    }

    /// Whether `user` was a member of the record's game at any step (as created included).
    private func wasMember(_ user: UserID, of record: StoredGameRecord) async throws(WireError) -> Bool {
        let steps: [GameRecordStep]
        do throws(StoreError) {
            steps = try await store.backend.records.gameRecordSteps(id: record.id, from: 1, limit: record.stepCount)
        } catch {
            throw storeFailure(error, operation: "read record \(record.id)")
        }
        var member = false
        do throws(GameRecordDivergence) {
            _ = try replayer.replayEach(initialState: record.initialState, steps: steps) { (_, state) throws(GameRecordDivergence) in
                if !member, state.members.contains(user) { member = true }
            }
        } catch {
            logger.error("A game record does not replay", metadata: ["record": "\(record.id)", "divergence": "\(error)"])
            throw WireError.internalError("The record of game \(record.code) does not replay; the server's log says where.")
        }
        return member
    }
}
