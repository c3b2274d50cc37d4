import ArgumentParser
import ParlorClient
@testable import ParlorTerminal
import ParlorWire
import Testing

/// The terminal's access options: `--private` and `--spectators` on a create, `--invite` (a token or
/// the browser's link) on a join, carried beside every request; and the host's commands.
@Suite("parlor private games")
struct AccessOptionsTests {
    @Test("--private, --spectators and --invite become the client's access arguments")
    func options() throws {
        let create = try parse(["darts", "create", "--private", "--spectators", "signedIn"], as: DartsCreate.self).options
        #expect(create.gameAccess == GameAccessRequest(private: true, spectators: "signedIn"))
        #expect(try create.configuration(environment: ["HOME": "/h"]).gameAccess == GameAccessRequest(private: true, spectators: "signedIn"))
        let link = try parse(["darts", "join", "3QX7K", "--invite", "https://parlor.example/join/3QX7K?invite=i1.1780003600.abc_-&x=1"], as: DartsJoin.self)
        #expect(link.options.gameAccess == GameAccessRequest(invite: "i1.1780003600.abc_-"))
        let token = try parse(["darts", "join", "3QX7K", "--invite", "i1.1780003600.abc"], as: DartsJoin.self)
        #expect(token.options.gameAccess == GameAccessRequest(invite: "i1.1780003600.abc"))
        #expect(try parse(["darts", "join", "3QX7K"], as: DartsJoin.self).options.gameAccess == nil)
        #expect(complaint(["darts", "create", "--spectators", "friends"])?.contains("--spectators must be allowed, signedIn or none") == true)
    }

    @Test("invite, lock, unlock and hand-over take a code; hand-over a user id")
    func hostCommands() throws {
        #expect(try parse(["invite", "3QX7K", "--ttl", "600"], as: Invite.self).ttl == 600)
        #expect(complaint(["invite", "3QX7K", "--ttl", "0"])?.contains("--ttl must be between 1 and 604800") == true)
        #expect(try parse(["lock", "3QX7K"], as: Lock.self).code == "3QX7K")
        #expect(try parse(["unlock", "3QX7K"], as: Unlock.self).code == "3QX7K")
        #expect(complaint(["hand-over", "3QX7K", "bo"])?.contains("USER_ID must be a user id") == true)
        let access = GameAccessView(kind: "darts", code: "3QX7K", private: true, locked: true, spectators: .none, host: nil)
        #expect(AccessCommands.outcome(access).sentence == "3QX7K: private, locked, nobody else may watch.")
    }
}
