import Foundation
import ParlorTestSupport
import ParlorWire
import Testing

/// What a newcomer met with real processes: a second player on the same identity, a server that is not
/// there, and a command typed while the server restarts.
@Suite("parlor for a newcomer, end to end", .serialized, .timeLimit(.minutes(3)))
struct TerminalNewcomerTests {
    @Test("join --name Bo on the identity that sits as Ann is refused with a sentence, and changes nothing")
    func secondPlayerOnOneIdentity() async throws {
        try await TerminalServer.with { server in
            let ann = try ScriptedParlor.launch(["create", "--players", "3", "--name", "Ann"], server: server, name: "ann")
            do {
                let code = try #require(try await ann.waitFor("its seat") { $0.event == "seat" }.code)
                let bo = try await oneShot(["join", code, "--name", "Bo"], home: ann.home, server: server)
                #expect(bo.status == 1)
                #expect(bo.stderr == "You are already seated as Ann in \(code) with this profile; use --profile to play as someone else "
                    + "(or leave out --name to come back as Ann).\n")
                #expect(bo.stdout.isEmpty)
                let show = try await oneShot(["show", code], home: ann.home, server: server)
                #expect(ParlorLine(show.stdout.trimmingCharacters(in: .newlines))?.room?.players.map(\.name) == ["Ann"])
                #expect(await ann.finish() == 0)
            } catch {
                await ann.kill()
                throw error
            }
        }
    }

    @Test("A server that refuses the connection is reported at once, not after --timeout")
    func refusedFailsFast() async throws {
        let home = try ScratchDirectory("refused")
        defer { home.remove() }
        // oneShot gives up after 30 s; with --timeout 120 only failing fast exits in time.
        let join = try await oneShot(["join", "K7Q2MX", "--timeout", "120"], home: home, serverURL: "ws://127.0.0.1:1")
        #expect(join.status == 1)
        #expect(join.stderr == "Not connected to the Parlor server: nothing is listening at 127.0.0.1:1 (connection refused).\n")
        let lobby = try await oneShot(["lobby", "join", "GDTS", "--timeout", "120"], home: home, serverURL: "ws://127.0.0.1:1")
        #expect(lobby.status == 1)
        #expect(lobby.stderr.contains("nothing is listening at 127.0.0.1:1"))
    }

    @Test(
        "ready typed while the server restarts, after its request has given up, is sent on reconnecting",
        .enabled("needs parlor-server to keep rooms with --data-dir", ServerFeatures.persistsRooms))
    func queuedAcrossRestart() async throws {
        let data = try ScratchDirectory("data")
        defer { data.remove() }
        var server = try await TerminalServer.startRestartable(extraArguments: ["--data-dir", data.path])
        let port = server.port
        let ann = try ScriptedParlor.launch(["create", "--players", "2", "--name", "Ann"], server: server, name: "ann")
        var bo: ScriptedParlor?
        do {
            let code = try #require(try await ann.waitFor("its seat") { $0.event == "seat" }.code)
            let joined = try ScriptedParlor.launch(["join", code, "--name", "Bo", "--timeout", "1"], server: server, name: "bo")
            bo = joined
            try await joined.waitFor("its seat") { $0.event == "seat" }
            try await joined.waitFor("connected") { $0.event == "status" && $0.state == "connected" }
            await server.process.stop()
            try await joined.waitFor("reconnecting") { $0.event == "status" && $0.state == "reconnecting" }
            joined.send("ready")
            // Longer than --timeout: the request has found no connection and been kept.
            try await Task.sleep(for: .seconds(3))
            #expect(!joined.process.lines.contains { ParlorLine($0)?.event == "done" })
            server = try await TerminalServer.start(port: port, extraArguments: ["--data-dir", data.path])
            try await joined.waitFor("connected again") { $0.event == "status" && $0.state == "connected" }
            try await joined.waitFor("ready done") { $0.event == "done" && $0.action == "ready" }
            try await ann.waitForRoom("Bo is ready") { $0.players.first { $0.name == "Bo" }?.isReady == true }
            #expect(!joined.process.lines.contains { ParlorLine($0)?.event == "error" })
            #expect(await joined.finish() == 0)
            #expect(await ann.finish() == 0)
            await server.process.stop()
        } catch {
            await bo?.kill()
            await ann.kill()
            await server.process.stop()
            throw error
        }
    }
}
