import ParlorRules
import ParlorWire

/// `getGameRecord` and `GET /games/{code}/record`: one page of a finished game's record, for a
/// signed-in viewer, whatever its kind. Each step is replayed through the rules (`GameRecordReplay`)
/// and shown as the viewer was shown it live (`GameRecordViewer`): the game's public view after it —
/// the very view every spectator was sent — and, to a member of the game at that step, their own
/// private view, the very frame the game sent them; an action goes with it only when the viewer saw it.
/// A private game's record, or one whose spectators were refused or limited, is refused alike to whom
/// the game would have refused (`GameRecordAccess`).
enum GameRecordOperation {
    static func handler(_ games: [any HostedGame]) -> OperationHandler<GameRecordArguments> {
        OperationHandler(Operation.getGameRecord) { args, context throws(WireError) in
            let viewer = try context.signedIn()
            let (from, limit) = try args.checkedPage()
            let (head, host) = try await finished(args.code, for: viewer, in: games.compactMap(\.recordReplaying))
            return .reply(try await host.recordPage(head, for: viewer, from: from, limit: limit))
        }
    }

    /// The record of the last finished game with `code`, and the game that replays it — when `viewer`
    /// may read it (`GameHost.admitRecordViewer`: a private or closed game's record is refused to
    /// whom the game was).
    static func finished(
        _ code: String, for viewer: UserID, in hosts: [any RecordReplaying]
    ) async throws(WireError) -> (StoredGameRecord, any RecordReplaying) {
        guard let store = hosts.first?.recordStore else { throw notAvailable(code, why: "this server keeps no records") }
        let head: StoredGameRecord?
        do throws(StoreError) {
            head = try await store.backend.records.finishedGameRecord(code: code)
        } catch {
            throw error.wireError(fallback: "The record could not be read. Try again.")
        }
        guard let head else {
            throw notAvailable(
                code,
                why: "no finished game with this code has one (a game still being played has no record to show yet; one that finished before this server kept records never will)")
        }
        guard let host = hosts.first(where: { $0.kind.name == head.kind }) else {
            throw notAvailable(code, why: "this server does not host \(head.kind) games")
        }
        try await host.admitRecordViewer(viewer, to: head)
        return (head, host)
    }

    static func notAvailable(_ code: String, why: String) -> WireError {
        WireError(.recordNotAvailable, "There is no record of game \(code.prefix(20)): \(why).")
    }
}

extension GameHost {
    var recordStore: any ParlorStore { store }

    /// Steps `from`… of `record` (at most `limit`), each replayed and shown as `viewer` saw it.
    func recordPage(_ record: StoredGameRecord, for viewer: UserID, from: Int, limit: Int) async throws(WireError) -> EncodedJSON {
        let steps: [GameRecordStep]
        do throws(StoreError) {
            // Replay starts from the beginning: a page needs every step before it.
            steps = try await store.backend.records.gameRecordSteps(id: record.id, from: 1, limit: from - 1 + limit)
        } catch {
            throw storeFailure(error, operation: "read record \(record.id)")
        }
        var failure: WireError?
        var initial: GameRecordViewer<Game>.Seen?
        var pageSteps: [(GameRecordStep, GameRecordViewer<Game>.Seen)] = []
        let seer = GameRecordViewer(game: game, viewer: viewer)
        do throws(GameRecordDivergence) {
            _ = try replayer.replayEach(initialState: record.initialState, steps: steps) { (step, state) throws(GameRecordDivergence) in
                guard failure == nil else { return }
                guard (step?.step ?? 1) >= from else { return }
                do throws(WireError) {
                    let view = try seer.seen(state, at: Instant(millisecondsSinceEpoch: step?.at ?? record.createdAt))
                    if let step { pageSteps.append((step, view)) } else { initial = view }
                } catch {
                    failure = error
                }
            }
        } catch {
            logger.error("A game record does not replay", metadata: ["record": "\(record.id)", "divergence": "\(error)"])
            throw WireError.internalError("The record of game \(record.code) does not replay; the server's log says where.")
        }
        if let failure { throw failure }
        var json = JSONWriter(capacity: 1024 + pageSteps.reduce(0) { $0 + $1.1.byteCount + $1.0.action.utf8.count + 160 })
        json.beginObject()
        json.field("code", record.code)
        json.field("createdAt", Instant(millisecondsSinceEpoch: record.createdAt).iso8601)
        json.field("finishedAt", Instant(millisecondsSinceEpoch: record.finishedAt ?? record.createdAt).iso8601)
        if let initial {
            json.key("initial")
            json.beginObject()
            initial.writePrivate(into: &json)
            json.field("version", record.initialVersion)
            json.key("view")
            json.raw(initial.view)
            json.endObject()
        }
        json.field("kind", record.kind)
        let next = from + pageSteps.count
        if pageSteps.count == limit, next <= record.stepCount {
            json.field("nextFrom", next)
        }
        json.field("stepCount", record.stepCount)
        json.key("steps")
        json.beginArray()
        for (step, seen) in pageSteps {
            json.beginObject()
            if seer.seesAction(of: step) {
                json.key("action")
                json.raw(EncodedJSON(trustedBytes: Array(step.action.utf8)))
            }
            if let actor = step.actor { json.field("actor", actor) }
            json.field("at", Instant(millisecondsSinceEpoch: step.at).iso8601)
            seen.writePrivate(into: &json)
            json.field("step", step.step)
            json.field("version", step.version)
            json.key("view")
            json.raw(seen.view)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.encoded
    }
}
