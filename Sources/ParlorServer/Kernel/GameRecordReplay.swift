import Foundation
import ParlorRules
import ParlorWire

/// Replay is the rules run again: a record's initial state, then each step's action given to the same
/// reducer by the same caller at the same time, reading the environment as the step recorded it (a
/// step that read nothing, or was recorded before environment reads were, gets the environment the
/// game reads now). Every step must be applied (the live game applied it) and reach the version it
/// recorded; the first that does not is the record's divergence.
struct GameRecordReplay<Game: GameDefinition> {
    typealias Rules = Game.Rules

    let game: Game
    /// The environment as it is now.
    let environment: Rules.Environment

    /// The game after steps 1…`n` of `steps` (0: as created). `steps` must begin at step 1.
    func replay(initialState: String, steps: [GameRecordStep], to n: Int) throws(GameRecordDivergence) -> Rules {
        var state = try Self.initial(initialState)
        for step in steps.prefix(n) {
            try apply(step, to: &state)
        }
        return state
    }

    /// Every step applied in turn, `visit` shown the game after each (and first as created, with step nil).
    func replayEach(
        initialState: String, steps: [GameRecordStep], visit: (GameRecordStep?, Rules) throws(GameRecordDivergence) -> Void
    ) throws(GameRecordDivergence) -> Rules {
        var state = try Self.initial(initialState)
        try visit(nil, state)
        for step in steps {
            try apply(step, to: &state)
            try visit(step, state)
        }
        return state
    }

    static func initial(_ json: String) throws(GameRecordDivergence) -> Rules {
        do {
            return try Game.decodeStored(json)
        } catch {
            throw GameRecordDivergence(step: 0, reason: "the initial state cannot be read: \(StoredJSON.describe(error))")
        }
    }

    /// Applies one step as the live game did, checking that it was applied and reached its version.
    func apply(_ step: GameRecordStep, to state: inout Rules) throws(GameRecordDivergence) {
        guard step.version == state.version + 1 else {
            throw GameRecordDivergence(step: step.step, reason: "it records version \(step.version) after version \(state.version)")
        }
        let action: Rules.Action
        do throws(StoreError) {
            action = try StoredJSON.decode(Rules.Action.self, from: step.action, what: "action", location: "the record")
        } catch {
            throw GameRecordDivergence(step: step.step, reason: "its action cannot be read: \(error.reason)")
        }
        guard let caller = step.caller else {
            throw GameRecordDivergence(step: step.step, reason: "its actor \(step.actor ?? "") is not a user id")
        }
        let read: Rules.Environment
        if let reads = step.environment {
            do {
                read = try game.replayEnvironment(reading: reads)
            } catch {
                throw GameRecordDivergence(step: step.step, reason: "what it read cannot be read back: \(StoredJSON.describe(error))")
            }
        } else {
            read = environment
        }
        do {
            _ = try state.apply(action, by: caller, at: Instant(millisecondsSinceEpoch: step.at), in: read)
        } catch {
            throw GameRecordDivergence(step: step.step, reason: "the rules refuse its action (\(Game.kind.name): \(error))")
        }
        guard state.version == step.version else {
            throw GameRecordDivergence(
                step: step.step, reason: "the rules reach version \(state.version), the record says \(step.version)")
        }
    }
}

/// Where a replay parts from its record: the first step that cannot be applied as recorded (0: the
/// initial state), and why.
struct GameRecordDivergence: Error, Sendable, Equatable, CustomStringConvertible {
    var step: Int
    var reason: String

    var description: String { "step \(step): \(reason)" }
}

/// A game whose records the kernel can replay without knowing its type (`verify-records`): every
/// `GameHost` is one.
protocol RecordReplaying: Sendable {
    var kind: GameKind { get }
    /// Replays the record to its end; nil when every step agrees with it, the game filed in history is
    /// the game some step reached, and the live game (while there is one) is the game the last step
    /// reached — no step recorded that the game did not apply, none applied that is not recorded.
    func verify(_ record: StoredGameRecord, steps: [GameRecordStep], checkpoints: GameRecordCheckpoints) -> GameRecordDivergence?
    /// Where its records are.
    var recordStore: any ParlorStore { get }
    /// Steps `from`… of a finished game's record (at most `limit`), as `getGameRecord` answers them to `viewer`.
    func recordPage(_ record: StoredGameRecord, for viewer: UserID, from: Int, limit: Int) async throws(WireError) -> EncodedJSON
    /// Refuses `viewer` the record when the game's access settings would have (`GameRecordAccess`).
    func admitRecordViewer(_ viewer: UserID, to record: StoredGameRecord) async throws(WireError)
    /// The formats its finished games' records are exported in (`GameRecordExport`).
    var recordExportFormats: [RecordExportFormat] { get }
    /// A finished game's record, replayed to its end, in one of those formats.
    func recordExport(_ record: StoredGameRecord, as format: RecordExportFormat) async throws(WireError) -> String
}

extension GameHost: RecordReplaying {
    var recordReplaying: (any RecordReplaying)? { self }

    /// The replayer with the environment the game's rules read now.
    var replayer: GameRecordReplay<Game> { GameRecordReplay(game: game, environment: game.environment()) }

    func verify(_ record: StoredGameRecord, steps: [GameRecordStep], checkpoints: GameRecordCheckpoints) -> GameRecordDivergence? {
        do throws(GameRecordDivergence) {
            for (index, step) in steps.enumerated() where step.step != index + 1 {
                throw GameRecordDivergence(step: index + 1, reason: "the record has step \(step.step) in its place")
            }
            let live = try checkpoints.live.map { json throws(GameRecordDivergence) in try Self.checkpoint(json, "the live game") }
            var filed = try checkpoints.filed.map { json throws(GameRecordDivergence) in try Self.checkpoint(json, "the finished game") }
            let end = try replayer.replayEach(initialState: record.initialState, steps: steps) { (step, state) throws(GameRecordDivergence) in
                guard let expected = filed, expected.version == state.version else { return }
                try Self.expect(state, equals: expected.json, at: step?.step ?? 0, what: "the game history filed")
                filed = nil
            }
            if let filed {
                throw GameRecordDivergence(
                    step: steps.count, reason: "history filed the game at version \(filed.version); the record reaches only version \(end.version)")
            }
            if let live {
                guard live.version == end.version else {
                    throw GameRecordDivergence(
                        step: steps.count, reason: "the live game is at version \(live.version); the record reaches version \(end.version)")
                }
                try Self.expect(end, equals: live.json, at: steps.count, what: "the live game")
            }
            return nil
        } catch {
            return error
        }
    }

    /// A stored form of the game, read, with its version.
    private static func checkpoint(_ json: String, _ what: String) throws(GameRecordDivergence) -> (version: Int, json: String) {
        do {
            let state = try Game.decodeStored(json)
            return (state.version, try Game.storedJSON(state))
        } catch {
            throw GameRecordDivergence(step: 0, reason: "\(what) cannot be read: \(StoredJSON.describe(error))")
        }
    }

    private static func expect(_ state: Rules, equals stored: String, at step: Int, what: String) throws(GameRecordDivergence) {
        let replayed: String
        do throws(StoreError) {
            replayed = try Game.storedJSON(state)
        } catch {
            throw GameRecordDivergence(step: step, reason: "the replayed game cannot be stored: \(error.reason)")
        }
        guard JSONValue.sameJSON(replayed, stored) else {
            throw GameRecordDivergence(step: step, reason: "the replayed game differs from \(what) (version \(state.version))")
        }
    }
}

/// JSON compared as values (object keys in any order), for stored forms whose encoders do not sort keys:
/// both read and written again with sorted keys.
enum JSONValue {
    static func sameJSON(_ a: String, _ b: String) -> Bool {
        a == b || (canonical(a).map { $0 == canonical(b) } ?? false)
    }

    private static func canonical(_ json: String) -> String? {
        guard let value = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed]),
              let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
