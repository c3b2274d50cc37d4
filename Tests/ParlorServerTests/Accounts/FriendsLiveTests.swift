import Foundation
import ParlorRules
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// `observeFriends` over the WebSocket: the list arrives at once, then again at every request, answer,
/// profile change, and friend coming, going or sitting down to play — settled on the server's clock,
/// with the match's code to watch it by.
@Suite struct FriendsLiveTests {
    /// Moves the server's clock on and lets presence settle.
    static func pass(_ seconds: Double, _ clock: ManualClock, _ parlor: ParlorHarness) async {
        clock.advance(bySeconds: seconds)
        await parlor.services.timers.settled()
    }

    static func friends(_ event: [String: Any]) throws -> (version: Int, rows: [[String: Any]]) {
        let data = try #require(event["data"] as? [String: Any])
        return (try #require(data["version"] as? Int), try #require(data["friends"] as? [[String: Any]]))
    }

    @Test func aFriendsListLiveWithPresence() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let bo = try await parlor.member("bobo", "Bo")
            try await parlor.connect(signIn: false) { annSocket in
                try await annSocket.hello(token: ann.token)
                let subscribed = try await annSocket.call("observeFriends")
                let sub = try #require(subscribed.result?["subscription"] as? Int)
                var (version, rows) = try Self.friends(try await annSocket.nextEvent(sub: sub))
                #expect(version == 1 && rows.isEmpty)

                // A request arrives…
                let id = try #require((try await parlor.http("POST", "/friends", body: ["addressee_id": ann.id], token: bo.token).1
                    as? [String: Any])?["id"] as? String)
                (version, rows) = try Self.friends(try await annSocket.nextEvent(sub: sub))
                #expect(version == 2 && rows.map { $0["status"] as? String } == ["pending"] && rows[0]["presence"] == nil)
                #expect((rows[0]["friend"] as? [String: Any])?["display_name"] as? String == "Bo" && rows[0]["requester_id"] as? String == bo.id)

                // …is accepted: Bo is a friend, away.
                #expect(try await parlor.http("PUT", "/friends/\(id)", body: ["status": "accepted"], token: ann.token).0 == 200)
                (version, rows) = try Self.friends(try await annSocket.nextEvent(sub: sub))
                #expect(version == 3 && rows[0]["status"] as? String == "accepted")
                #expect((rows[0]["presence"] as? [String: Any])?["online"] as? Bool == false)

                try await parlor.connect(signIn: false) { boSocket in
                    try await boSocket.hello(token: bo.token)
                    await Self.pass(1, clock, parlor)
                    (version, rows) = try Self.friends(try await annSocket.nextEvent(sub: sub))
                    let online = try #require(rows.first?["presence"] as? [String: Any])
                    #expect(version == 4 && online["online"] as? Bool == true && online["playing"] is NSNull)

                    // Bo sits down to a match: Ann sees its code, and can watch it.
                    let created = try await boSocket.call("createMatch", ["gameType": "501", "playerName": "Bo"])
                    let code = try #require((created.result?["match"] as? [String: Any])?["id"] as? String)
                    await Self.pass(1, clock, parlor)
                    (version, rows) = try Self.friends(try await annSocket.nextEvent(sub: sub))
                    let playing = try #require((rows.first?["presence"] as? [String: Any])?["playing"] as? [String: Any])
                    #expect(version == 5 && playing["game"] as? String == "darts" && playing["code"] as? String == code)
                    let watch = try await annSocket.call("observeMatch", ["code": code])
                    let matchSub = try #require(watch.result?["subscription"] as? Int)
                    #expect((try await annSocket.nextEvent(sub: matchSub)["data"] as? [String: Any])?["id"] as? String == code)

                    // A new name reaches the list.
                    #expect(try await parlor.http("PUT", "/users/\(bo.id)", body: ["display_name": "Bo B."], token: bo.token).0 == 200)
                    (version, rows) = try Self.friends(try await annSocket.nextEvent(sub: sub))
                    #expect(version == 6 && (rows.first?["friend"] as? [String: Any])?["display_name"] as? String == "Bo B.")
                }
                // Bo's phone drops: nothing for the grace, then away — still seated at the match.
                let boID = try #require(UserID(bo.id))
                await eventually { !parlor.services.presence.isConnected(boID) }
                await Self.pass(1, clock, parlor)
                await Self.pass(3, clock, parlor)
                #expect(!annSocket.pendingEvents.contains { ($0["sub"] as? Int) == sub })
                await Self.pass(2, clock, parlor)
                (version, rows) = try Self.friends(try await annSocket.nextEvent(sub: sub))
                let away = try #require(rows.first?["presence"] as? [String: Any])
                #expect(version == 7 && away["online"] as? Bool == false && (away["playing"] as? [String: Any])?["game"] as? String == "darts")

                // Unfriending empties the list.
                #expect(try await parlor.http("DELETE", "/friends/\(id)", token: bo.token).0 == 204)
                (version, rows) = try Self.friends(try await annSocket.nextEvent(sub: sub))
                #expect(version == 8 && rows.isEmpty)
                #expect(try await annSocket.call("unsubscribe", ["subscription": sub]).result == nil)
            }
        }
    }

    @Test func aPhoneFlappingTellsItsFriendsNothing() async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: accountLimits) { parlor in
            let ann = try await parlor.member("ann", "Ann")
            let bo = try await parlor.member("bobo", "Bo")
            try await parlor.friends(ann, bo)
            try await parlor.connect(signIn: false) { annSocket in
                try await annSocket.hello(token: ann.token)
                let sub = try #require(try await annSocket.call("observeFriends").result?["subscription"] as? Int)
                _ = try await annSocket.nextEvent(sub: sub)
                let boID = try #require(UserID(bo.id))
                for flap in 0..<10 {
                    try await parlor.connect(signIn: false) { (boSocket: JSONConnection) async throws -> Void in
                        try await boSocket.hello(token: bo.token)
                        guard flap == 0 else { return }
                        // Bo comes online: announced once settled.
                        await Self.pass(1, clock, parlor)
                        let (version, rows) = try Self.friends(try await annSocket.nextEvent(sub: sub))
                        #expect(version == 2 && (rows.first?["presence"] as? [String: Any])?["online"] as? Bool == true)
                    }
                    // The phone drops and is back within a second, ten times over.
                    await eventually { !parlor.services.presence.isConnected(boID) }
                    await Self.pass(1, clock, parlor)
                }
                #expect(annSocket.pendingEvents.isEmpty)
                // Gone for good: away, once, when the grace is over.
                await Self.pass(5, clock, parlor)
                let (version, after) = try Self.friends(try await annSocket.nextEvent(sub: sub))
                #expect(version == 3 && (after.first?["presence"] as? [String: Any])?["online"] as? Bool == false)
                await Self.pass(10, clock, parlor)
                await #expect(throws: TestTimeout.self) { try await annSocket.nextEvent(sub: sub, timeout: .milliseconds(300)) }
                #expect(annSocket.pendingEvents.isEmpty)
            }
        }
    }

    @Test func observingNeedsASignedInConnection() async throws {
        try await withParlor { parlor in
            try await parlor.connect(signIn: false) { (anonymous: JSONConnection) async throws in
                #expect(try await anonymous.call("observeFriends").errorCode == "UNAUTHENTICATED")
            }
        }
    }
}
