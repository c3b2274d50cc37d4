import ParlorRules

/// A player's own data in memory, with the same outcomes as SQLite's, under the store's one lock.
extension InMemoryStore {
    public func accountData(of user: UserID) async throws(StoreError) -> AccountData {
        state.withLockedValue { state in
            var data = AccountData()
            data.profile = state.profiles[user]
            data.friendships = state.friendships.filter { $0.requester == user || $0.addressee == user }
            data.settings = (state.userSettings[user] ?? [:]).sorted { $0.key < $1.key }.map { AccountData.Setting(name: $0.key, json: $0.value) }
            data.identities = state.externalIdentities.filter { $0.value == user }.map { (issuer: $0.key.issuer, subject: $0.key.subject) }
                .sorted { ($0.issuer, $0.subject) < ($1.issuer, $1.subject) }
            data.history = state.history.filter { $0.players.contains(user) }.map { filed in
                AccountData.PlayedEntry(
                    kind: filed.kind.name, key: filed.key, finishedAt: filed.finishedAt, state: (try? filed.state.json()) ?? "",
                    tallyJSON: filed.tallies[user].flatMap { try? TallyJSON.encode($0) })
            }
            data.uploads = state.uploads.values.flatMap(\.values).filter { $0.uploader == user || $0.players.contains(user) }
                .sorted { ($0.finishedAt, $0.id) < ($1.finishedAt, $1.id) }
                .map { AccountData.Upload(kind: $0.kind.name, id: $0.id, uploader: $0.uploader, finishedAt: $0.finishedAt, state: $0.state) }
            let records = state.gameRecords
            data.records = records.inOrder.filter { record in
                record.head.initialState.contains(user.rawValue) || record.steps.contains { $0.actor == user.rawValue }
            }.map { record in
                AccountData.Record(
                    id: record.head.id, kind: record.head.kind, code: record.head.code,
                    finishedAt: record.head.finishedAt.map(Instant.init(millisecondsSinceEpoch:)))
            }
            data.liveGames = Self.liveGames(naming: user, in: state)
            return data
        }
    }

    public func deleteAccount(_ user: UserID, pseudonym: UserID, at now: Instant) async throws(StoreError) -> AccountDeletionOutcome {
        let erasure = AccountErasure(user: user, pseudonym: pseudonym)
        let id = user.rawValue
        return state.withLockedValue { state in
            let live = Self.liveGames(naming: user, in: state)
            guard live.isEmpty else { return .inLiveGames(live) }
            state.profiles[user] = nil
            state.friendships.removeAll { $0.requester == user || $0.addressee == user }
            state.userSettings[user] = nil
            state.externalIdentities = state.externalIdentities.filter { $0.value != user }

            var history: [Filed] = []
            for var filed in state.history {
                filed.players.remove(user)
                filed.tallies[user] = nil
                let json = (try? filed.state.json()) ?? ""
                if filed.players.isEmpty && json.contains(id) {
                    // A game nobody else played goes, with its record.
                    let gone = state.gameRecords.byID.values.filter { $0.head.kind == filed.kind.name && $0.head.historyKey == filed.key }.map(\.head.id)
                    for record in gone { state.gameRecords.remove(record) }
                    state.filedKeys.remove("\(filed.kind)/\(filed.key)")
                    continue
                }
                if json.contains(id) { filed.state = .json(erasure.anonymised(state: json)) }
                history.append(filed)
            }
            state.history = history

            for (kind, games) in state.uploads {
                for (gameID, var game) in games where game.uploader == user || game.players.contains(user) {
                    game.players.removeAll { $0 == user }
                    game.tallies[user] = nil
                    if game.uploader == user && game.players.isEmpty {
                        state.uploads[kind]?[gameID] = nil
                        continue
                    }
                    if game.uploader == user { game.uploader = pseudonym }
                    game.state = erasure.anonymised(state: game.state)
                    state.uploads[kind]?[gameID] = game
                }
            }

            for (recordID, var record) in state.gameRecords.byID {
                record.head.initialState = erasure.anonymised(state: record.head.initialState)
                record.steps = record.steps.map { step in
                    var step = step
                    if step.actor == id {
                        step.actor = pseudonym.rawValue
                        step.action = erasure.anonymised(action: step.action)
                    } else {
                        step.action = erasure.anonymised(state: step.action)
                    }
                    return step
                }
                state.gameRecords.byID[recordID] = record
            }
            state.deletedUsers.insert(AccountErasure.fingerprint(of: user))
            return .deleted
        }
    }

    public func isDeletedAccount(_ user: UserID) async throws(StoreError) -> Bool {
        let fingerprint = AccountErasure.fingerprint(of: user)
        return state.withLockedValue { $0.deletedUsers.contains(fingerprint) }
    }

    private static func liveGames(naming user: UserID, in state: State) -> [LiveGameRef] {
        state.games.values.flatMap(\.values).filter { game in (try? game.state.json())?.contains(user.rawValue) == true }
            .map { LiveGameRef(kind: $0.kind.name, code: $0.code) }
            .sorted { ($0.kind, $0.code) < ($1.kind, $1.code) }
    }
}
