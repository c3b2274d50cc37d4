import Foundation
import ParlorRules
import ParlorWire
import Testing
@testable import ParlorServer

/// Invitations to private games: signed over the kind, the code and the expiry, so an altered one,
/// another game's, another server's or an expired one opens nothing.
@Suite struct GameInvitesTests {
    static let secret = Array("an invitation secret of 32 bytes".utf8)
    static let darts = GameKind("darts", noun: "match", plural: "matches")
    static let rummy = GameKind("rummy", noun: "room", plural: "rooms")
    static let now = Instant(millisecondsSinceEpoch: 1_780_000_000_000)

    @Test func anInvitationOpensItsGameUntilItExpires() {
        let invites = GameInvites(secret: Self.secret)
        let invite = invites.issue(kind: Self.darts, code: "ABC123", expires: Self.now.adding(seconds: 3600))
        #expect(invite.hasPrefix("i1.1780003600."))
        #expect(invites.refusal(invite, kind: Self.darts, code: "ABC123", at: Self.now) == nil)
        #expect(invites.refusal(invite, kind: Self.darts, code: "ABC123", at: Self.now.adding(seconds: 3599)) == nil)
        let expired = invites.refusal(invite, kind: Self.darts, code: "ABC123", at: Self.now.adding(seconds: 3600))
        #expect(expired?.code == .notInvited && expired?.message.contains("expired") == true)
    }

    @Test func anythingElseIsNotInvited() throws {
        let invites = GameInvites(secret: Self.secret)
        let expires = Self.now.adding(seconds: 3600)
        let invite = invites.issue(kind: Self.darts, code: "ABC123", expires: expires)
        let parts = invite.split(separator: ".").map(String.init)
        let refused: [String?] = [
            nil, "", "i1", "i1..", invite + ".", "i2." + parts[1] + "." + parts[2],
            // A later expiry with the old signature; a leading zero; the signature altered or cut.
            "i1.\(Int(parts[1])! + 3600).\(parts[2])", "i1.0\(parts[1]).\(parts[2])",
            "i1.\(parts[1]).\(parts[2].dropLast())", "i1.\(parts[1]).\(parts[2].dropLast())\(parts[2].hasSuffix("A") ? "B" : "A")",
            "i1.\(parts[1]).\(parts[2])=", String(repeating: "A", count: 600),
            // The same game's invitation from a server with another secret.
            GameInvites(secret: Array("another secret, also of 32 bytes".utf8)).issue(kind: Self.darts, code: "ABC123", expires: expires),
        ]
        for candidate in refused {
            #expect(invites.refusal(candidate, kind: Self.darts, code: "ABC123", at: Self.now)?.code == .notInvited, "\(candidate ?? "nil")")
        }
        // Another code, and the same code of another kind.
        #expect(invites.refusal(invite, kind: Self.darts, code: "ABC124", at: Self.now)?.code == .notInvited)
        #expect(invites.refusal(invite, kind: Self.rummy, code: "ABC123", at: Self.now)?.code == .notInvited)
    }

    /// The stored form: the plain array of before when the settings are the defaults, their element
    /// first otherwise; both read back, and PostgreSQL's `due_at` reads only the actions' `due`.
    @Test func theSettingsAreStoredWithTheSchedule() throws {
        var schedule = GameSchedule<String>()
        schedule.apply(.schedule(key: "end", at: Self.now, "finish"))
        let plain = try schedule.json()
        #expect(plain.hasPrefix("[{") && !plain.contains("access"))
        #expect(try GameSchedule<String>(json: plain) == schedule)

        schedule.access = GameAccess(isPrivate: true, locked: true, spectators: .signedIn)
        let json = try schedule.json()
        #expect(json.hasPrefix(#"[{"access":{"#))
        let read = try GameSchedule<String>(json: json)
        #expect(read == schedule && read.entries.count == 1 && read.access.spectators == .signedIn)

        let accessOnly = try GameSchedule<String>(access: GameAccess(locked: true)).json()
        #expect(try GameSchedule<String>(json: accessOnly).access == GameAccess(locked: true))
        #expect(try GameSchedule<String>(json: StoredGame.emptySchedule).access.isDefault)
    }
}
