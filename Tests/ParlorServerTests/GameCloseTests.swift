import NIOConcurrencyHelpers
import ParlorRules
import ParlorTestSupport
import ParlorWire
import Testing
@testable import ParlorServer

/// The operator's close on the game actor, without sockets: it takes its turn behind the changes already
/// sent (they are saved and answered first), deletes the game once, and what comes after finds it gone.
@Suite struct GameCloseTests {
    @Test func aCloseQueuedBehindChangesWaitsForThemAndEndsTheGame() async throws {
        let deletions = NIOLockedValueBox(0)
        let (room, store, actor, first) = try await RoomGroupCommitTests.roomWaitingForItsFirstSave(deleted: deletions)
        let before = RoomGroupCommitTests.start(actor, .submitScore(playerId: RoomGroupCommitTests.bo, round: 1, score: 40), by: RoomGroupCommitTests.bo)
        await eventually { await actor.queuedMutations == 1 }
        let close = Task { () -> WireError? in
            do throws(WireError) {
                try await actor.close(reason: "The venue is closing")
                return nil
            } catch {
                return error
            }
        }
        await eventually { await actor.queuedMutations == 2 }
        let after = RoomGroupCommitTests.start(actor, .submitScore(playerId: RoomGroupCommitTests.ann, round: 1, score: 9), by: RoomGroupCommitTests.ann)
        await eventually { await actor.queuedMutations == 3 }
        store.release()

        #expect(RoomGroupCommitTests.version(await first.value) == room.version + 1)
        #expect(RoomGroupCommitTests.version(await before.value) == room.version + 2, "the change sent before the close is kept")
        #expect(await close.value == nil)
        #expect(RoomGroupCommitTests.code(await after.value) == .roomNotFound, "the change sent after it finds the room gone")
        #expect(store.savedVersions == [room.version + 1, room.version + 2], "saved before the deletion")
        #expect(deletions.withLockedValue { $0 } == 1)
        await #expect(throws: WireError.self) { try await actor.current() }
    }
}
