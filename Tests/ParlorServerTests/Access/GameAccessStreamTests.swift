import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorServer

/// A game's access settings reach its open streams as they change, for every kind: an `access` event
/// beside the views, sent to a new subscriber after the current view and to everyone on a lock, an
/// unlock or a new host — without anyone asking again.
@Suite struct GameAccessStreamTests {
    @Test(arguments: AccessKind.all)
    func aLockAndANewHostReachEveryOpenStream(_ kind: AccessKind) async throws {
        try await withParlor(configure: AccessKind.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { bo in
                    try await parlor.connect { watcher in
                        let code = try await kind.create(ann, [:])
                        #expect(try await kind.join(bo, code, [:]).result != nil)
                        let bob = try #require(bo.userId)
                        let sub = try #require(try await kind.watch(watcher, code).result?["subscription"] as? Int)
                        _ = try await AccessKind.view(watcher, sub: sub, atLeast: 1)

                        #expect(try await ann.call("lockGame", kind.args(code)).result?["locked"] as? Bool == true)
                        let locked = try #require(try await watcher.nextAccess(sub: sub)["data"] as? [String: Any])
                        #expect(locked["locked"] as? Bool == true && locked["kind"] as? String == kind.name && locked["code"] as? String == code)
                        #expect(locked["private"] as? Bool == false && locked["spectators"] as? String == "allowed")
                        #expect(locked["host"] as? String == ann.userId, "\(locked)")

                        #expect(try await ann.call("transferHost", kind.args(code, ["to": bob])).result?["host"] as? String == bob)
                        let handed = try #require(try await watcher.nextAccess(sub: sub)["data"] as? [String: Any])
                        #expect(handed["host"] as? String == bob && handed["locked"] as? Bool == true, "\(handed)")

                        #expect(try await bo.call("unlockGame", kind.args(code)).result?["locked"] as? Bool == false)
                        let unlocked = try #require(try await watcher.nextAccess(sub: sub)["data"] as? [String: Any])
                        #expect(unlocked["locked"] as? Bool == false && unlocked["host"] as? String == bob, "\(unlocked)")
                    }
                }
            }
        }
    }

    @Test func aNewSubscriberHearsTheSettingsAndAnOpenGameSaysNothingUntilLocked() async throws {
        try await withParlor(configure: AccessKind.configure) { parlor in
            try await parlor.connect { ann in
                try await parlor.connect { watcher in
                    let kind = AccessKind.darts
                    let closed = try await kind.create(ann, ["private": true, "spectators": "signedIn"])
                    let open = try await kind.create(ann, [:])
                    // A private game's stream: its view, then its settings.
                    let sub = try #require(try await kind.watch(ann, closed).result?["subscription"] as? Int)
                    _ = try await AccessKind.view(ann, sub: sub, atLeast: 1)
                    let access = try #require(try await ann.nextAccess(sub: sub)["data"] as? [String: Any])
                    #expect(access["private"] as? Bool == true && access["spectators"] as? String == "signedIn" && access["locked"] as? Bool == false)

                    // An open game's stream says nothing of its settings until its host locks it: the
                    // first access event it carries is the lock's.
                    let openSub = try #require(try await kind.watch(watcher, open).result?["subscription"] as? Int)
                    _ = try await AccessKind.view(watcher, sub: openSub, atLeast: 1)
                    #expect(try await ann.call("lockGame", kind.args(open)).result?["locked"] as? Bool == true)
                    let first = try #require(try await watcher.nextAccess(sub: openSub)["data"] as? [String: Any])
                    #expect(first["locked"] as? Bool == true, "\(first)")
                }
            }
        }
    }
}
