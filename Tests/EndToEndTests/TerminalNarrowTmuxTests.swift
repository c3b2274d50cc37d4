import Foundation
import Testing

/// The rummy screen in a real 60-column terminal: the keys line keeps `[q] quit`, `?` shows the keys,
/// the grid keeps R6 and the Total beside a long name, the moderator's entry for you is announced, and
/// `q` leaves the command that comes back.
@Suite("parlor at 60 columns in tmux", .serialized, .timeLimit(.minutes(3)), .enabled(if: Tmux.isInstalled, "needs tmux (scripts/setup.sh --test)"))
struct TerminalNarrowTmuxTests {
    @Test("A player at 60 columns: help, the whole grid, an announcement, and the way back")
    func narrowRoom() async throws {
        let server = try await TerminalServer.start()
        let tmux = Tmux()
        let home = try ScratchDirectory("narrow-tmux")
        var others: [ScriptedParlor] = []
        do {
            let ann = try ScriptedParlor.launch(
                ["create", "--players", "3", "--name", "Annabelle Fontaine"], server: server, name: "ann")
            others.append(ann)
            let code = try #require(try await ann.waitFor("its seat") { $0.event == "seat" }.code)

            try await tmux.openShells(["bo"], home: home.path, width: 60, height: 22)
            let parlor = BuiltProducts.url("parlor").path
            try await tmux.typeLine("bo", "\(parlor) join \(code) --name Bo --server \(server.url)")
            try await tmux.waitFor("bo", "\\[r\\] ready  \\[l\\] leave  \\[\\?\\] help  \\[q\\] quit")
            try await tmux.press("bo", "?")
            try await tmux.waitFor("bo", "Keys: r ready · s start")

            try await tmux.press("bo", "r")
            let cy = try ScriptedParlor.launch(["join", code, "--name", "Cyrano de Bergerac"], server: server, name: "cy")
            others.append(cy)
            try await cy.waitFor("its seat") { $0.event == "seat" }
            cy.send("ready")
            try await ann.waitForRoom("all are ready") { $0.players.count == 3 && $0.players.allSatisfy(\.isReady) }
            ann.send("start")
            try await tmux.waitFor("bo", "Annabelle Fontaine started the game")
            try await tmux.waitFor("bo", "Player +\\[R1\\] +R2 +R3 +R4 +R5 +R6 Total$")
            try await tmux.waitFor("bo", "Cyrano de Bergerac +· +· +· +· +· +· +0$")

            ann.send("score 80 --player Bo")
            try await tmux.waitFor("bo", "Annabelle Fontaine entered 80 for you in round 1\\.")
            try await tmux.waitFor("bo", "\\[q\\] quit$")

            try await tmux.press("bo", "q")
            // The sentence wraps at 60 columns; its first row names the command.
            try await tmux.waitFor("bo", "^You are still in room \(code); parlor join \(code) --server ws")
            try await tmux.expectTerminalRestored("bo")
            for other in others { #expect(await other.finish() == 0) }
        } catch {
            for other in others { await other.kill() }
            await tmux.tearDown(server, home)
            throw error
        }
        await tmux.tearDown(server, home)
    }
}

/// A server that takes the connection and never answers: the terminal is not blank meanwhile.
@Suite("parlor connecting, in tmux", .serialized, .timeLimit(.minutes(2)), .enabled(if: Tmux.isInstalled, "needs tmux (scripts/setup.sh --test)"))
struct TerminalConnectingTmuxTests {
    @Test("connecting to … shows at once, then the reason it failed")
    func connectingShowsAtOnce() async throws {
        // Accepts TCP connections and never speaks: the WebSocket handshake waits for its timeout.
        let silent = try ChildProcess(
            executable: "/usr/bin/env",
            ["python3", "-c", "import socket,time\ns=socket.socket()\ns.bind(('127.0.0.1',0))\ns.listen()\nprint(s.getsockname()[1],flush=True)\ntime.sleep(60)"],
            name: "silent listener")
        let tmux = Tmux()
        let home = try ScratchDirectory("connecting-tmux")
        do {
            let (_, port) = try await silent.waitForLine("its port") { Int($0) != nil }
            try await tmux.openShells(["ann"], home: home.path, width: 80, height: 10)
            let parlor = BuiltProducts.url("parlor").path
            try await tmux.typeLine("ann", "\(parlor) join K7Q2MX --server ws://127.0.0.1:\(port)")
            try await tmux.waitFor("ann", "connecting to ws://127.0.0.1:\(port)/ws …", timeout: .seconds(4))
            try await tmux.waitFor("ann", "^Not connected to the Parlor server", timeout: .seconds(20))
            try await tmux.expectTerminalRestored("ann")
        } catch {
            await tmux.kill()
            await silent.stop()
            home.remove()
            throw error
        }
        await tmux.kill()
        await silent.stop()
        home.remove()
    }
}
