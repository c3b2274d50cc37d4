import NIOConcurrencyHelpers
import ParlorRules
import Testing
@testable import ParlorServer

/// What friends are told is settled: changes are announced at most once a second, a reconnect within
/// the grace is never seen, and a user's place is the live game they sat down in last.
@Suite struct PresenceTests {
    let ann = StoreFixtures.user(1)
    let bo = StoreFixtures.user(2)
    let match = Presence.Place(kind: "darts", code: "QX7KM")
    let room = Presence.Place(kind: "rummy", code: "A1B2C3")

    /// A presence on a manual clock whose timers run for `body`; `heard` holds every announcement.
    func withPresence(_ body: (Presence, ManualClock, GameTimers, NIOLockedValueBox<[[UserID: Presence.Status]]>) async throws -> Void) async throws {
        let clock = ManualClock()
        let timers = GameTimers(clock: clock)
        let presence = Presence(clock: clock, timers: timers)
        let heard = NIOLockedValueBox<[[UserID: Presence.Status]]>([])
        presence.onChange { changes in heard.withLockedValue { $0.append(changes) } }
        let running = Task { await timers.run() }
        defer { running.cancel() }
        try await body(presence, clock, timers, heard)
    }

    func pass(_ seconds: Double, _ clock: ManualClock, _ timers: GameTimers) async {
        clock.advance(bySeconds: seconds)
        await timers.settled()
    }

    @Test func comingOnlineIsAnnouncedOnceSettled() async throws {
        try await withPresence { presence, clock, timers, heard in
            presence.connected(ann)
            presence.connected(ann)
            #expect(heard.withLockedValue { $0 }.isEmpty)
            #expect(presence.status(of: ann) == .away, "not announced before it settles")
            #expect(presence.isConnected(ann))
            await pass(1, clock, timers)
            #expect(heard.withLockedValue { $0 } == [[ann: Presence.Status(online: true)]])
            #expect(presence.status(of: ann).online)
            // One of two connections closing changes nothing.
            presence.disconnected(ann)
            await pass(1, clock, timers)
            #expect(heard.withLockedValue { $0 }.count == 1)
        }
    }

    @Test func aPhoneThatDropsAndReconnectsWithinTheGraceTellsNobody() async throws {
        try await withPresence { presence, clock, timers, heard in
            presence.connected(ann)
            await pass(1, clock, timers)
            for _ in 0..<20 {
                presence.disconnected(ann)
                await pass(1, clock, timers)
                presence.connected(ann)
                await pass(1, clock, timers)
            }
            #expect(heard.withLockedValue { $0 }.count == 1)
            // Gone for good: announced once the grace is over, not before.
            presence.disconnected(ann)
            await pass(4, clock, timers)
            #expect(heard.withLockedValue { $0 }.count == 1)
            await pass(2, clock, timers)
            #expect(heard.withLockedValue { $0 }.last == [ann: .away])
            #expect(presence.status(of: ann) == .away && !presence.isConnected(ann))
        }
    }

    @Test func aPlaceIsTheLiveGameSatDownInLast() async throws {
        try await withPresence { presence, clock, timers, heard in
            presence.connected(ann)
            presence.setPlayers(of: "rummy/A1B2C3", at: room, to: [ann, bo])
            await pass(1, clock, timers)
            #expect(heard.withLockedValue { $0 }.last == [ann: Presence.Status(online: true, playing: room), bo: Presence.Status(playing: room)])
            presence.setPlayers(of: "darts/m-1", at: match, to: [ann])
            presence.setPlayers(of: "darts/m-1", at: match, to: [ann])
            await pass(1, clock, timers)
            #expect(heard.withLockedValue { $0 }.last == [ann: Presence.Status(online: true, playing: match)])
            // The match ends: back to the room, which is still on.
            presence.setPlayers(of: "darts/m-1", at: match, to: [])
            await pass(1, clock, timers)
            #expect(heard.withLockedValue { $0 }.last == [ann: Presence.Status(online: true, playing: room)])
            presence.setPlayers(of: "rummy/A1B2C3", at: room, to: [])
            await pass(1, clock, timers)
            #expect(heard.withLockedValue { $0 }.last == [ann: Presence.Status(online: true), bo: .away])
            #expect(heard.withLockedValue { $0 }.count == 4)
        }
    }
}
