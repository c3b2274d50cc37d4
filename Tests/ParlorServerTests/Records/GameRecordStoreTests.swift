import Foundation
import ParlorRules
import ParlorTestSupport
import ParlorWire
import Testing
@testable import ParlorServer

/// Game records in every store: written with the save that applies each action (so a save whose
/// record cannot be written changes nothing), replayed to the game stored, kept with history when the
/// game finished and deleted with the game when it did not.
@Suite(.serialized) struct GameRecordStoreTests {
    /// A tic-tac-toe game Ann (X) wins on the top row: Bo's join, then five marks.
    private static let moves = [0, 4, 1, 5, 2]

    private func play(_ parlor: ParlorHarness, upTo count: Int = moves.count) async throws -> (code: String, ann: String, bo: String) {
        try await parlor.connect { ann in
            try await parlor.connect { bo in
                let created = try #require(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result)
                let code = try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String)
                #expect(try await bo.call("joinTicTacToe", ["code": code, "playerName": "Bo"]).result != nil)
                for (index, cell) in Self.moves.prefix(count).enumerated() {
                    let player = index.isMultiple(of: 2) ? ann : bo
                    #expect(try await player.call("placeMark", ["code": code, "cell": cell]).result != nil)
                }
                return (code, ann.userId!, bo.userId!)
            }
        }
    }

    @Test(arguments: DurableStore.available)
    func aWholeGameIsRecordedStepByStepAndReplaysToTheStoredGame(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let store = try await place.open()
            try await withParlor(store: store) { parlor in
                let (code, ann, bo) = try await play(parlor)
                let records = store.backend.records
                let head = try #require(try await records.finishedGameRecord(code: code))
                #expect(head.kind == "tic-tac-toe" && head.initialVersion == 1 && head.finishedAt != nil && head.stepCount == 6)
                let steps = try await records.gameRecordSteps(id: head.id, from: 1, limit: 100)
                #expect(steps.map(\.step) == Array(1...6) && steps.map(\.version) == Array(2...7))
                #expect(steps.map(\.actor) == [bo, ann, bo, ann, bo, ann])
                #expect(steps[0].action == #"{"join":{"playerName":"Bo"}}"# && steps[5].action == #"{"place":{"cell":2}}"#)
                // A page from the middle.
                #expect(try await records.gameRecordSteps(id: head.id, from: 3, limit: 2).map(\.step) == [3, 4])

                // Replay to n is the game as it was after n steps; to the end, the game stored.
                let host = parlor.services.host(TicTacToeGame.self)
                let third = try host.replayer.replay(initialState: head.initialState, steps: steps, to: 3)
                #expect(third.version == 4 && third.board.compactMap { $0 }.count == 2)
                let (live, _) = try await host.game(code: code).current()
                let replayed = try host.replayer.replay(initialState: head.initialState, steps: steps, to: 6)
                #expect(JSONValue.sameJSON(try TicTacToeGame.storedJSON(replayed), try TicTacToeGame.storedJSON(live)))

                let clean = try await GameRecordVerification.verify(store: store, games: parlor.services.games)
                #expect(clean.checked == 1 && clean.steps == 6 && clean.divergences.isEmpty)

                // Ann's second mark (step 4, cell 1) made a mark on Bo's cell: the rules refuse it there.
                try await place.execute(
                    "UPDATE game_record_steps SET action = '{\"place\":{\"cell\":4}}' WHERE record_id = '\(head.id)' AND step = 4")
                let tampered = try await GameRecordVerification.verify(store: store, games: parlor.services.games)
                #expect(tampered.divergences.map(\.step) == [4] && tampered.divergences.first?.code == code)
                #expect(tampered.divergences.first?.reason.contains("refuse") == true)
            }
            await store.close()
        }
    }

    @Test(arguments: DurableStore.available)
    func aSaveWhoseRecordCannotBeWrittenChangesNothing(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let store = try await place.open()
            switch kind {
            case .sqlite:
                try await place.execute(
                    "CREATE TRIGGER refuse_step BEFORE INSERT ON game_record_steps WHEN NEW.step = 3 BEGIN SELECT RAISE(ABORT, 'refused'); END")
            case .postgres:
                try await place.execute("""
                    CREATE FUNCTION refuse_step() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$;
                    CREATE TRIGGER refuse_step BEFORE INSERT ON game_record_steps FOR EACH ROW WHEN (NEW.step = 3) EXECUTE FUNCTION refuse_step();
                    """)
            }
            try await withParlor(store: store) { parlor in
                try await parlor.connect { ann in
                    try await parlor.connect { bo in
                        let created = try #require(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result)
                        let code = try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String)
                        #expect(try await bo.call("joinTicTacToe", ["code": code, "playerName": "Bo"]).result != nil)
                        #expect(try await ann.call("placeMark", ["code": code, "cell": 0]).result != nil)
                        // Step 3's record row is refused: so is its game's new version, in the same transaction.
                        #expect(try await bo.call("placeMark", ["code": code, "cell": 4]).errorCode == "INTERNAL")
                        let stored = try #require(try await store.loadGame(TicTacToeGame.kind, code: code))
                        #expect(stored.version == 3)
                        #expect(try await ann.call("getTicTacToe", ["code": code]).result?["version"] as? Int == 3)
                        let recordID = try #require(stored.record?.id)
                        #expect(try await store.backend.records.gameRecordSteps(id: recordID, from: 1, limit: 10).map(\.step) == [1, 2])

                        try await place.execute("DROP TRIGGER refuse_step\(kind == .postgres ? " ON game_record_steps" : "")")
                        #expect(try await bo.call("placeMark", ["code": code, "cell": 4]).result?["version"] as? Int == 4)
                        #expect(try await store.backend.records.gameRecordSteps(id: recordID, from: 1, limit: 10).map(\.version) == [2, 3, 4])
                    }
                }
            }
            await store.close()
        }
    }

    @Test func theMemoryStoreKeepsRecordsAsTheDurableStoresDo() async throws {
        let store = InMemoryStore()
        try await withParlor(store: store) { parlor in
            let (code, _, _) = try await play(parlor)
            let head = try #require(try await store.backend.records.finishedGameRecord(code: code))
            #expect(head.stepCount == 6)
            let report = try await GameRecordVerification.verify(store: store, games: parlor.services.games)
            #expect(report.checked == 1 && report.steps == 6 && report.divergences.isEmpty)

            // As in the durable stores: an unfinished game's deletion takes its record along, a finished
            // game keeps its own.
            try await parlor.connect { ann in
                let created = try #require(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result)
                let open = try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String)
                #expect(try await store.backend.records.gameRecordIDs().count == 2)
                _ = try await ann.call("leaveTicTacToe", ["code": open])
                #expect(try await store.loadGame(TicTacToeGame.kind, code: open) == nil)
            }
            #expect(try await store.backend.records.gameRecordIDs() == [head.id])
            #expect(try await store.backend.records.finishedGameRecord(code: code)?.id == head.id)
        }
    }

    @Test(arguments: DurableStore.available)
    func anUnfinishedGameTakesItsRecordAlongWhenItIsDeletedAndAFinishedOneKeepsIt(_ kind: DurableStore) async throws {
        try await kind.withPlace { place in
            let store = try await place.open()
            try await withParlor(store: store) { parlor in
                let finished = try await play(parlor)
                try await parlor.connect { ann in
                    let created = try #require(try await ann.call("createTicTacToe", ["playerName": "Ann"]).result)
                    let code = try #require((created["ticTacToe"] as? [String: Any])?["code"] as? String)
                    #expect(try await place.count("game_records") == 2)
                    // The creator leaving an unjoined game deletes it, and its record with it.
                    _ = try await ann.call("leaveTicTacToe", ["code": code])
                    #expect(try await store.loadGame(TicTacToeGame.kind, code: code) == nil)
                }
                #expect(try await place.count("game_records") == 1)
                #expect(try await store.backend.records.finishedGameRecord(code: finished.code) != nil)
                #expect(try await place.count("game_record_steps") == 6)
            }
            await store.close()
        }
    }
}
