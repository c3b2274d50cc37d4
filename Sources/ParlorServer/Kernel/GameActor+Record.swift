import ParlorRules

/// The actor's side of game records (`GameRecord.swift`): each group notes the actions that changed
/// the game, and its save carries them to the store with the new version, in one transaction.
extension GameActor {
    /// One action a group applied that changed the game, before it is encoded for the store.
    struct RecordedAction: Sendable {
        var action: Action
        var caller: Caller
        var at: Instant
        /// The version the action reached.
        var version: Int
        /// What it read from the environment (`GameDefinition.environmentReads`).
        var environment: String?
    }

    /// What the draft's save adds to the game's record: its steps, each numbered by the version it
    /// reached (a record begins at version 1, so step n reaches version n + 1). Nil for a game without
    /// a record (created before records existed).
    func recordWrite(_ draft: Draft) throws(StoreError) -> GameRecordWrite? {
        guard let recordID else { return nil }
        var steps: [GameRecordStep] = []
        steps.reserveCapacity(draft.recorded.count)
        for recorded in draft.recorded {
            steps.append(GameRecordStep(
                step: recorded.version - GameRecordOpening.firstVersion, actor: recorded.caller.user?.rawValue,
                at: recorded.at.millisecondsSinceEpoch, action: try StoredJSON.encode(recorded.action, what: "an action of \(Game.kind.noun) \(id)"),
                version: recorded.version, environment: recorded.environment))
        }
        return GameRecordWrite(id: recordID, steps: steps)
    }
}

extension GameRecordOpening {
    /// Every game is created at version 1 (`GameRules.version`); a record's steps count from there.
    static var firstVersion: Int { 1 }

    /// A new game's record, which its creating save begins; nil when the game does not start at the
    /// first version (then it keeps no record rather than a wrong one).
    static func begin<Game: GameDefinition>(
        _ state: Game.Rules, of game: Game.Type, access: GameAccess, at now: Instant
    ) throws(StoreError) -> GameRecordWrite? {
        guard state.version == firstVersion else { return nil }
        return GameRecordWrite(
            id: Game.randomID(),
            opening: GameRecordOpening(
                createdAt: now.millisecondsSinceEpoch, initialState: try Game.storedJSON(state), initialVersion: state.version,
                access: access.isDefault ? nil : try StoredJSON.encode(access, what: "the access settings of a new \(Game.kind.noun)")),
            steps: [])
    }
}
