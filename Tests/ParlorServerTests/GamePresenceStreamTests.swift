import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Every game's stream says who of its players is connected (`presence` events beside the views),
/// settled on the server's clock: a dropped player is shown away once the grace is over and back when
/// they return, a flapping phone tells nobody, and none of it is a version of the game.
@Suite struct GamePresenceStreamTests {
    static func pass(_ seconds: Double, _ clock: ManualClock, _ parlor: ParlorHarness) async {
        clock.advance(bySeconds: seconds)
        await parlor.services.timers.settled()
    }

    /// `userId → online` of a presence event, and its players' order.
    static func shown(_ event: [String: Any]) throws -> (online: [String: Bool], order: [String]) {
        #expect(event["event"] as? String == "presence")
        let players = try #require((event["data"] as? [String: Any])?["players"] as? [[String: Any]])
        var online: [String: Bool] = [:]
        var order: [String] = []
        for player in players {
            let id = try #require(player["userId"] as? String)
            online[id] = try #require(player["online"] as? Bool)
            order.append(id)
        }
        return (online, order)
    }

    @Test func aDroppedPlayerIsShownAwayAfterTheGraceAndBackWhenTheyReturn() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect(signIn: false) { spectator in
                    let annID = try #require(ann.userId)
                    let (code, sub, boID, boToken) = try await parlor.connect { bo in
                        let code = try await RoomFlowTests.seat(ann, [bo])
                        let sub = try #require(try await spectator.call("observeRoom", ["code": code]).result?["subscription"] as? Int)
                        let view = try await spectator.nextEvent(sub: sub)
                        #expect((view["data"] as? [String: Any])?["version"] as? Int == 2)
                        // Right after the view: both seated players, in seat order, connected.
                        let first = try Self.shown(try await spectator.nextPresence(sub: sub))
                        #expect(first.order == [annID, try #require(bo.userId)])
                        #expect(first.online == [annID: true, try #require(bo.userId): true])
                        return (code, sub, try #require(bo.userId), try #require(bo.token))
                    }
                    // Bo's connection closed: nothing within the grace…
                    let bo = try #require(UserID(boID))
                    await eventually { !parlor.services.presence.isConnected(bo) }
                    await Self.pass(1, clock, parlor)
                    await Self.pass(3, clock, parlor)
                    await #expect(throws: TestTimeout.self) { try await spectator.nextPresence(sub: sub, timeout: .milliseconds(300)) }
                    // …then away, once, and the room's version has not moved.
                    await Self.pass(2, clock, parlor)
                    #expect(try Self.shown(try await spectator.nextPresence(sub: sub)).online == [annID: true, boID: false])
                    await #expect(throws: TestTimeout.self) { try await spectator.nextEvent(sub: sub, timeout: .milliseconds(300)) }
                    let room = try await spectator.call("getRoom", ["code": code])
                    #expect(room.result?["version"] as? Int == 2, "\(room)")

                    // A new subscriber gets the view and then who is here now.
                    try await parlor.connect(signIn: false) { late in
                        let lateSub = try #require(try await late.call("observeRoom", ["code": code]).result?["subscription"] as? Int)
                        _ = try await late.nextEvent(sub: lateSub)
                        #expect(try Self.shown(try await late.nextPresence(sub: lateSub)).online == [annID: true, boID: false])
                    }

                    // Bo comes back: shown connected once it settles.
                    try await parlor.connect(token: boToken) { (_: JSONConnection) async throws -> Void in
                        await Self.pass(1, clock, parlor)
                        #expect(try Self.shown(try await spectator.nextPresence(sub: sub)).online == [annID: true, boID: true])
                    }
                    // His phone drops and is back within a second, five times over: nobody is told.
                    for _ in 0..<5 {
                        await eventually { !parlor.services.presence.isConnected(bo) }
                        await Self.pass(1, clock, parlor)
                        try await parlor.connect(token: boToken) { _ in await Self.pass(1, clock, parlor) }
                    }
                    await #expect(throws: TestTimeout.self) { try await spectator.nextPresence(sub: sub, timeout: .milliseconds(300)) }
                    #expect(!spectator.pendingEvents.contains { ($0["sub"] as? Int) == sub })
                }
            }
        }
    }

    /// Two players whose connections close together are shown away in one publication, not two; a
    /// settle that changes nothing the game shows publishes nothing.
    @Test func playersLeavingTogetherCostTheGameOnePublication() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock) { parlor in
            try await parlor.connect { ann in
                let annID = try #require(ann.userId)
                let (sub, others) = try await parlor.connect { (bo: JSONConnection) async throws -> (Int, [String]) in
                    try await parlor.connect { (cy: JSONConnection) async throws -> (Int, [String]) in
                        let code = try await RoomFlowTests.seat(ann, [bo, cy])
                        let sub = try #require(try await ann.call("observeRoom", ["code": code]).result?["subscription"] as? Int)
                        _ = try await ann.nextEvent(sub: sub)
                        #expect(try Self.shown(try await ann.nextPresence(sub: sub)).online.values.allSatisfy { $0 })
                        return (sub, [try #require(bo.userId), try #require(cy.userId)])
                    }
                }
                for other in others {
                    let user = try #require(UserID(other))
                    await eventually { !parlor.services.presence.isConnected(user) }
                }
                for _ in 0..<3 { await Self.pass(1, clock, parlor) }
                await Self.pass(3, clock, parlor)
                #expect(try Self.shown(try await ann.nextPresence(sub: sub)).online == [annID: true, others[0]: false, others[1]: false])
                await Self.pass(10, clock, parlor)
                await #expect(throws: TestTimeout.self) { try await ann.nextPresence(sub: sub, timeout: .milliseconds(300)) }
                #expect(parlor.services.host(RummyGame.self).gamePresence.trackedGames == 1)
            }
        }
    }

    @Test func everyKindOfGameCarriesPresenceAfterItsFirstView() async throws {
        try await withParlor(configure: { LobbyFixture.configure(&$0) }) { parlor in
            try await parlor.connect { ann in
                let annID = try #require(ann.userId)
                let lobby = try await LobbyFixture.create(ann)
                let match = try #require((try await ann.call("createMatch", ["gameType": "501", "playerName": "Ann"]).result?["match"]
                    as? [String: Any])?["id"] as? String)
                let quiz = try await QuizWire.seat(ann, [])
                let room = try await RoomFlowTests.seat(ann, [])
                let streams: [(String, [String: Any], String)] = [
                    ("observeLobby", ["lobbyId": lobby.id], "lobby"), ("observeMatch", ["code": match], "match"),
                    ("observeQuiz", ["code": quiz], "quiz"), ("observeRoom", ["code": room], "room"),
                ]
                for (operation, arguments, event) in streams {
                    let sub = try #require(try await ann.call(operation, arguments).result?["subscription"] as? Int, "\(operation)")
                    #expect(try await ann.nextFrame()["event"] as? String == event, "\(operation): the view comes first")
                    if event == "lobby" { _ = try await ann.nextFrame() }  // Ann's own words follow the lobby.
                    let presence = try await ann.nextFrame()
                    #expect(presence["sub"] as? Int == sub)
                    #expect(try Self.shown(presence).online == [annID: true], "\(operation)")
                }
            }
        }
    }
}
