import Foundation
import Testing

/// `parlor account export` and `parlor account delete` against the real `parlor-server`: the export is the
/// server's document, written to a file; delete asks for "delete" (or takes --yes), and the identity's
/// token is refused afterwards (ACCOUNT_DELETED) while the terminal starts afresh.
@Suite struct TerminalAccountTests {
    @Test func theTerminalExportsThenDeletesItsAccount() async throws {
        try await TerminalServer.with { server in
            let home = try ScratchDirectory("account")
            defer { home.remove() }
            let http = "http://127.0.0.1:\(server.port)"
            // An identity for this terminal, with a profile made over HTTP with its token.
            #expect(try await oneShot(["history", "--json"], home: home, server: server).status == 0)
            let tokens = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: home.url.appendingPathComponent("parlor/tokens.json"))) as? [String: Any])
            let token = try #require(tokens.values.first as? String)
            let created = try await curl([
                "-X", "POST", "-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json",
                "--data", #"{"handle":"terminal_tess","display_name":"Tess Terminal"}"#, "\(http)/users",
            ])
            #expect(created.status == 201, "\(created)")

            // Someone else, to read her profile (GET /users/{id} wants a signed-in caller).
            let other = try await curl(["-X", "POST", "\(http)/session"])
            let otherToken = try #require(
                (try JSONSerialization.jsonObject(with: Data(other.body.utf8)) as? [String: Any])?["token"] as? String, "\(other)")
            let file = home.url.appendingPathComponent("me.json").path
            let exported = try await oneShot(["account", "export", "--to", file], home: home, server: server)
            #expect(exported.status == 0 && exported.stdout.contains("Wrote your data"), "\(exported)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
            #expect(document["format"] as? String == "parlor-account-export")
            #expect((document["profile"] as? [String: Any])?["handle"] as? String == "terminal_tess")
            let user = try #require(document["userId"] as? String)

            // Not confirmed: nothing deleted.
            let asked = try ChildProcess(
                "parlor", ["account", "delete", "--server", server.url], environment: ["XDG_CONFIG_HOME": home.path], name: "parlor account delete")
            asked.send("no")
            asked.closeInput()
            #expect(await asked.waitForExit(timeout: .seconds(30)) == 1)
            #expect(asked.standardError.contains("Not deleted"), "\(asked.standardError)")
            #expect(try await curl(["-H", "Authorization: Bearer \(otherToken)", "\(http)/users/\(user)"]).status == 200)

            // Typed "delete": deleted.
            let confirmed = try ChildProcess(
                "parlor", ["account", "delete", "--server", server.url], environment: ["XDG_CONFIG_HOME": home.path], name: "parlor account delete")
            confirmed.send("delete")
            confirmed.closeInput()
            #expect(await confirmed.waitForExit(timeout: .seconds(30)) == 0, "\(confirmed.standardOutput) \(confirmed.standardError)")
            _ = await confirmed.waitForOutput()
            let answer = try #require(
                try JSONSerialization.jsonObject(with: Data(confirmed.standardOutput.split(separator: "\n").last.map { Data($0.utf8) } ?? Data()))
                    as? [String: Any], "\(confirmed.standardOutput)")
            #expect(answer["deleted"] as? Bool == true && answer["userId"] as? String == user)
            #expect(try await curl(["-H", "Authorization: Bearer \(otherToken)", "\(http)/users/\(user)"]).status == 404)
            let refused = try await curl(["-H", "Authorization: Bearer \(token)", "\(http)/users/me/export"])
            #expect(refused.status == 401 && refused.body.contains("ACCOUNT_DELETED"), "\(refused)")

            // The terminal starts afresh: a new identity, and --yes deletes it without asking.
            let again = try await oneShot(["account", "delete", "--yes", "--json"], home: home, server: server)
            #expect(again.status == 0, "\(again)")
            let second = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any], "\(again)")
            #expect(second["deleted"] as? Bool == true && second["userId"] as? String != user)
        }
    }
}
