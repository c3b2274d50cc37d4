import ArgumentParser
import ParlorClient
import ParlorTerminal
import Testing

/// The `parlor` command line: what each command reads, its defaults, and the sentences a mistake gets.
@Suite("parlor arguments")
struct ArgumentParsingTests {
    @Test("create reads the limit, value, seats and name")
    func create() throws {
        let command = try parse(["create", "--limit", "201", "--value", "25", "--players", "4", "--name", "Ann"], as: Create.self)
        #expect(command.limit == 201)
        #expect(command.value == 25)
        #expect(command.players == 4)
        #expect(command.name == "Ann")
        #expect(command.options.server == "ws://localhost:8080")
        #expect(command.options.json == false)
    }

    @Test("join and watch take a code in any case and normalize it")
    func joinAndWatch() throws {
        let join = try parse(["join", " k7q2mx", "--name", "Bo", "--server", "ws://127.0.0.1:9000", "--json"], as: Join.self)
        #expect(join.code == "K7Q2MX")
        #expect(join.name == "Bo")
        #expect(join.options.json)
        #expect(try join.options.configuration(environment: ["HOME": "/home/bo"]).server.url == "ws://127.0.0.1:9000/ws")
        #expect(try parse(["watch", "K7Q2MX"], as: Watch.self).code == "K7Q2MX")
    }

    @Test("The one-shot commands")
    func oneShots() throws {
        #expect(try parse(["ready", "K7Q2MX"], as: Ready.self).off == false)
        #expect(try parse(["ready", "K7Q2MX", "--off"], as: Ready.self).off)
        #expect(try parse(["start", "K7Q2MX"], as: Start.self).code == "K7Q2MX")
        let score = try parse(["score", "K7Q2MX", "25", "--round", "2", "--player", "Bo"], as: Score.self)
        #expect(score.points == 25 && score.round == 2 && score.player == "Bo")
        #expect(try parse(["score", "K7Q2MX", "0"], as: Score.self).round == nil)
        #expect(try parse(["next", "K7Q2MX"], as: Next.self).code == "K7Q2MX")
        #expect(try parse(["leave", "K7Q2MX"], as: Leave.self).code == "K7Q2MX")
        #expect(try parse(["show", "K7Q2MX"], as: Show.self).code == "K7Q2MX")
    }

    @Test("Tokens are kept per server (and profile) under XDG_CONFIG_HOME")
    func tokenLocation() throws {
        let command = try parse(["join", "K7Q2MX", "--profile", "bo", "--timeout", "2.5"], as: Join.self)
        let configuration = try command.options.configuration(environment: ["XDG_CONFIG_HOME": "/tmp/xdg", "HOME": "/home/bo"])
        #expect((configuration.tokenStore as? FileTokenStore)?.path == "/tmp/xdg/parlor/tokens.json")
        #expect(configuration.tokenKey == "ws://localhost:8080/ws#bo")
        #expect(configuration.requestTimeout == .milliseconds(2500))
    }

    @Test("Mistakes read as sentences")
    func mistakes() {
        #expect(complaint(["create", "--limit", "50", "--name", "Ann"]) == "--limit must be between 100 and 350 (got 50).")
        #expect(complaint(["create", "--players", "11", "--name", "Ann"]) == "--players must be between 2 and 10 (got 11).")
        #expect(complaint(["create", "--value", "0", "--name", "Ann"]) == "--value must be between 1 and 1000000 (got 0).")
        #expect(complaint(["create", "--name", "   "]) == "--name must not be empty.")
        #expect(complaint(["join", "ABC", "--name", "Bo"]) == "Room code must be exactly 6 characters (got 3).")
        #expect(complaint(["join", "ABC-12", "--name", "Bo"])
            == "Room code contains \"-\"; only the characters of the code alphabet are allowed.")
        #expect(complaint(["watch", "K7Q2MX", "--server", "http://localhost:8080"])
            == "The server address \"http://localhost:8080\" is not usable: invalid WebSocket URL: scheme must be ws or wss, not 'http'.")
        #expect(complaint(["watch", "K7Q2MX", "--timeout", "0"]) == "--timeout must be between 0 and 600 seconds (got 0.0).")
        #expect(complaint(["watch", "K7Q2MX", "--profile", "a b"]) == "--profile must be 1 to 40 letters, digits, - or _ (got \"a b\").")
        #expect(complaint(["score", "K7Q2MX", "1001"]) == "points must be between 0 and 1000 (got 1001).")
        #expect(complaint(["score", "K7Q2MX", "10", "--round", "7"]) == "--round must be between 1 and 6 (got 7).")
        #expect(complaint(["watch", "K7Q2MX", "--ca-file", "/nonexistent/ca.pem"]) == "Cannot read the CA file /nonexistent/ca.pem.")
        #expect(complaint(["join"])?.contains("Missing expected argument '<code>'") == true)
    }
}
