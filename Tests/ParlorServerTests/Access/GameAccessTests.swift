import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// Who may do what in a game, for every kind, decided by the kernel: private games joined by
/// invitation, games their host locks, and spectators allowed, limited to accounts, or refused — over
/// real sockets against the server on port 0.
@Suite struct GameAccessTests {
    @Test(arguments: AccessKind.all)
    func aPrivateGameIsJoinedWithItsHostsInvitationOnly(_ kind: AccessKind) async throws {
        let clock = ManualClock()
        try await withParlor(clock: clock, configure: AccessKind.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    let code = try await kind.create(ann, ["private": true])
                    let other = try await kind.create(ann, ["private": true])
                    let access = try #require(try await ann.call("getGameAccess", kind.args(code)).result)
                    #expect(access["private"] as? Bool == true && access["locked"] as? Bool == false)
                    #expect(access["spectators"] as? String == "allowed" && access["host"] as? String == ann.userId)

                    // Without an invitation, with a made-up one, and with another game's: NOT_INVITED.
                    let bare = try await kind.join(bo, code, [:])
                    #expect(bare.errorCode == "NOT_INVITED" && bare.errorStatus == "permission-denied", "\(bare)")
                    #expect(try await kind.join(bo, code, ["invite": "i1.99999999999.AAAA"]).errorCode == "NOT_INVITED")
                    let otherInvite = try #require(try await ann.call("createInvite", kind.args(other)).result?["invite"] as? String)
                    #expect(try await kind.join(bo, code, ["invite": otherInvite]).errorCode == "NOT_INVITED")

                    // Only the host invites.
                    let notHost = try await bo.call("createInvite", kind.args(code))
                    #expect(notHost.errorCode == "NOT_HOST", "\(notHost)")

                    // An invitation that expired.
                    let short = try #require(try await ann.call("createInvite", kind.args(code, ["ttlSeconds": 60])).result)
                    #expect(short["link"] as? String == "/join/\(code)?invite=\(short["invite"] as? String ?? "")")
                    clock.advance(bySeconds: 61)
                    let expired = try await kind.join(bo, code, ["invite": try #require(short["invite"] as? String)])
                    #expect(expired.errorCode == "NOT_INVITED" && expired.errorMessage?.contains("expired") == true, "\(expired)")

                    // A good one, altered by one character: refused; as given: Bo is in.
                    let invite = try #require(try await ann.call("createInvite", kind.args(code)).result?["invite"] as? String)
                    var altered = invite
                    altered.replaceSubrange(altered.index(before: altered.endIndex)..., with: invite.hasSuffix("A") ? "B" : "A")
                    #expect(try await kind.join(bo, code, ["invite": altered]).errorCode == "NOT_INVITED")
                    let joined = try await kind.join(bo, code, ["invite": invite])
                    #expect(joined.result != nil, "\(joined)")

                    // Seated, Bo comes back on another connection without the invitation.
                    try await parlor.connect(token: bo.token) { boAgain in
                        let again = try await kind.join(boAgain, code, [:])
                        #expect(again.result != nil, "\(again)")
                        #expect(try await kind.watch(boAgain, code).result != nil)
                    }
                }
            }
        }
    }

    @Test(arguments: AccessKind.all)
    func aLockedGameTakesNobodyNewButItsPlayersComeBack(_ kind: AccessKind) async throws {
        try await withParlor(configure: AccessKind.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect { cy in
                        let code = try await kind.create(ann, [:])
                        #expect(try await kind.join(bo, code, [:]).result != nil)

                        let notHost = try await bo.call("lockGame", kind.args(code))
                        #expect(notHost.errorCode == "NOT_HOST" && notHost.errorStatus == "permission-denied", "\(notHost)")
                        let locked = try #require(try await ann.call("lockGame", kind.args(code)).result)
                        #expect(locked["locked"] as? Bool == true && locked["kind"] as? String == kind.name && locked["code"] as? String == code)

                        let refused = try await kind.join(cy, code, [:])
                        #expect(refused.errorCode == "GAME_LOCKED" && refused.errorStatus == "failed-precondition", "\(refused)")
                        try await parlor.connect(token: bo.token) { boAgain in
                            let again = try await kind.join(boAgain, code, [:])
                            #expect(again.result != nil, "\(again)")
                            #expect(try await kind.watch(boAgain, code).result != nil)
                        }

                        let unlocked = try #require(try await ann.call("unlockGame", kind.args(code)).result)
                        #expect(unlocked["locked"] as? Bool == false)
                        let joined = try await kind.join(cy, code, [:])
                        #expect(joined.result != nil, "\(joined)")
                    }
                }
            }
        }
    }

    @Test(arguments: AccessKind.all)
    func spectatorsAreAllowedLimitedToAccountsOrRefused(_ kind: AccessKind) async throws {
        let sub = UUID().uuidString.lowercased()
        let keys = try await TestIssuer.make([.init("secret", "HS256", claims: AccountSignInTests.supabaseClaims(sub: sub))])
        try await withParlor(configure: AccessKind.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { stranger in
                    let open = try await kind.create(ann, [:])
                    #expect(try await kind.watch(stranger, open).result != nil)

                    let closed = try await kind.create(ann, ["spectators": "none"])
                    let refused = try await kind.watch(stranger, closed)
                    #expect(refused.errorCode == "SPECTATORS_NOT_ALLOWED" && refused.errorStatus == "permission-denied", "\(refused)")
                    #expect(try await ann.call("getGameAccess", kind.args(closed)).result?["spectators"] as? String == "none")

                    let accounts = try await kind.create(ann, ["spectators": "signedIn"])
                    #expect(try await kind.watch(stranger, accounts).errorCode == "SPECTATORS_NOT_ALLOWED")
                    try await parlor.connect(signIn: false) { member in
                        #expect(try await member.call("hello", ["jwt": keys.tokens[0]]).result?["userId"] != nil)
                        let watched = try await kind.watch(member, accounts)
                        #expect(watched.result != nil, "\(watched)")
                        #expect(try await kind.watch(member, closed).errorCode == "SPECTATORS_NOT_ALLOWED")
                    }
                    let bad = try await ann.call(
                        kind.name == "word-lobby" ? "createLobby" : "getGameAccess",
                        kind.name == "word-lobby" ? ["user": LobbyFixture.user("Ann"), "spectators": "friends"] : kind.args("ZZZZZZ"))
                    #expect(bad.errorCode == (kind.name == "word-lobby" ? "INVALID_INPUT" : "NOT_FOUND"), "\(bad)")
                }
            }
        }
    }

    @Test(arguments: AccessKind.all)
    func theHostHandsTheGameOverAndOnlyTheNewHostLocksIt(_ kind: AccessKind) async throws {
        try await withParlor(configure: AccessKind.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    // Signed in: a word lobby's spectators watch signed in (`watchLobby`).
                    try await parlor.connect { watcher in
                        let code = try await kind.create(ann, [:])
                        #expect(try await kind.join(bo, code, [:]).result != nil)
                        let bob = try #require(bo.userId)
                        let sub = try #require(try await kind.watch(watcher, code).result?["subscription"] as? Int)
                        let before = try await AccessKind.view(watcher, sub: sub, atLeast: 1)
                        #expect(kind.hostInView(before) == ann.userId)

                        let notHost = try await bo.call("transferHost", kind.args(code, ["to": bob]))
                        #expect(notHost.errorCode == "NOT_HOST", "\(notHost)")
                        let stranger = UUID().uuidString.lowercased()
                        let unknown = try await ann.call("transferHost", kind.args(code, ["to": stranger]))
                        #expect(unknown.errorCode == "PLAYER_NOT_FOUND", "\(unknown)")

                        let handed = try await ann.call("transferHost", kind.args(code, ["to": bob]))
                        #expect(handed.result?["host"] as? String == bob, "\(handed)")
                        // Everyone's view shows the new host.
                        let after = try await AccessKind.view(watcher, sub: sub, atLeast: (before["version"] as? Int ?? 0) + 1)
                        #expect(kind.hostInView(after) == bob, "\(after)")

                        let oldHost = try await ann.call("lockGame", kind.args(code))
                        #expect(oldHost.errorCode == "NOT_HOST", "\(oldHost)")
                        #expect(try await ann.call("createInvite", kind.args(code)).errorCode == "NOT_HOST")
                        #expect(try await bo.call("lockGame", kind.args(code)).result?["locked"] as? Bool == true)
                        #expect(try await bo.call("createInvite", kind.args(code)).result?["invite"] != nil)
                    }
                }
            }
        }
    }

    @Test func anAccessOperationNeedsAKnownKindAndALiveCode() async throws {
        try await withParlor(configure: AccessKind.configure) { parlor in
            try await parlor.connect { ann in
                let code = try await AccessKind.darts.create(ann, [:])
                // Without kind: the one live game with the code.
                #expect(try await ann.call("lockGame", ["code": code]).result?["kind"] as? String == "darts")
                #expect(try await ann.call("lockGame", ["code": code, "kind": "chess"]).errorCode == "INVALID_INPUT")
                #expect(try await ann.call("lockGame", ["code": "QQQQQQ"]).errorCode == "NOT_FOUND")
                #expect(try await ann.call("createInvite", ["code": code, "ttlSeconds": 0]).errorCode == "INVALID_INPUT")
                #expect(try await ann.call("createInvite", ["code": code, "ttlSeconds": 8 * 24 * 3600]).errorCode == "INVALID_INPUT")
                #expect(try await ann.call("createMatch", ["gameType": "301", "playerName": "Ann", "private": "yes"]).errorCode == "BAD_REQUEST")
            }
        }
    }

    /// The settings are stored with the game: a restart (SQLite, PostgreSQL) brings them back.
    @Test(arguments: DurableStore.available)
    func accessSettingsSurviveARestart(_ durable: DurableStore) async throws {
        try await durable.withPlace { place in
            let store = try await place.open()
            let (code, annToken) = try await withParlor(store: store, configure: AccessKind.configure) { parlor in
                try await parlor.connect { ann in
                    let code = try await AccessKind.darts.create(ann, ["private": true, "spectators": "none"])
                    #expect(try await ann.call("lockGame", AccessKind.darts.args(code)).result?["locked"] as? Bool == true)
                    return (code, try #require(ann.token))
                }
            }
            await store.close()

            let reopened = try await place.open()
            try await withParlor(store: reopened, configure: AccessKind.configure) { parlor in
                try await parlor.connect(token: annToken) { ann in
                    let access = try #require(try await ann.call("getGameAccess", AccessKind.darts.args(code)).result)
                    #expect(access["private"] as? Bool == true && access["locked"] as? Bool == true)
                    #expect(access["spectators"] as? String == "none" && access["host"] as? String == ann.userId)
                }
                try await parlor.connect { bo throws in
                    let joined = try await AccessKind.darts.join(bo, code, [:])
                    #expect(joined.errorCode == "GAME_LOCKED", "\(joined)")
                    let watched = try await AccessKind.darts.watch(bo, code)
                    #expect(watched.errorCode == "SPECTATORS_NOT_ALLOWED", "\(watched)")
                }
            }
            await reopened.close()
        }
    }
}
