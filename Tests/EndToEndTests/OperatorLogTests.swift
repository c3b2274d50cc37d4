import Foundation
import ParlorTestSupport
import Testing

/// The real `parlor-server`'s log at `info`, as an operator reads it: a line per game created and
/// finished, connections and errors summed up per interval by code, facts as `key=value` — and no line
/// per message however many there were.
@Suite struct OperatorLogTests {
    /// The `key=value` metadata of a swift-log line (`… info parlor: a=1 b=x [ParlorServer] Message`).
    static func metadata(_ line: Substring) -> [String: String] {
        guard let colon = line.range(of: "parlor: "), let bracket = line.range(of: " [", range: colon.upperBound..<line.endIndex)
        else { return [:] }
        var fields: [String: String] = [:]
        for pair in line[colon.upperBound..<bracket.lowerBound].split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }

    @Test func gamesConnectionsAndErrorsAreLoggedOncePerEventNotPerMessage() async throws {
        try await ServerProcess.with(["--no-persist", "--log-level", "info", "--log-summary-interval", "1"]) { server in
            let requests = 40
            let code = try await server.connect { ann in
                try await server.connect { bo in
                    let created = try await ann.call(
                        "createRoom", ["pointLimit": 100, "pointValue": 1, "playerCount": 2, "playerName": "Ann"])
                    let code = try #require((created["result"] as? [String: Any]).flatMap { ($0["room"] as? [String: Any])?["id"] as? String })
                    _ = try await bo.call("joinRoom", ["code": code, "playerName": "Bo"])
                    _ = try await bo.call("setReady", ["roomCode": code, "playerId": bo.userId!, "ready": true])
                    _ = try await ann.call("startGame", ["roomCode": code])
                    // Many requests, some refused: none of them is a line of its own.
                    for round in 0..<requests {
                        _ = try await bo.call("getRoom", ["code": round.isMultiple(of: 2) ? code : "ZZZZZZ"])
                    }
                    _ = try await ann.call("submitScore", ["roomCode": code, "playerId": ann.userId!, "round": 1, "score": 120])
                    _ = try await bo.call("submitScore", ["roomCode": code, "playerId": bo.userId!, "round": 1, "score": 5])
                    let next = try await ann.call("nextRound", ["roomCode": code])
                    #expect((next["result"] as? [String: Any])?["isFinished"] as? Bool == true, "\(next)")
                    return code
                }
            }
            // A REST request refused counts among the errors too.
            let refused = try await curl(["http://127.0.0.1:\(server.port)/rooms/ZZZZZZ"])
            #expect(refused.status == 404)
            // Both connections have closed: a summary line says so within the interval.
            var lines: [Substring] = []
            for _ in 0..<100 {
                lines = server.log.split(separator: "\n")
                let closed = lines.filter { $0.hasSuffix("Connections") }.map { Int(Self.metadata($0)["closed"] ?? "") ?? 0 }
                if closed.reduce(0, +) >= 2 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let log = lines.joined(separator: "\n")

            let created = lines.filter { $0.hasSuffix("Game created") }
            #expect(created.count == 1, "\(log)")
            #expect(created.first.map(Self.metadata) == ["kind": "rummy", "id": code, "code": code])
            let finished = lines.filter { $0.hasSuffix("Game finished") }
            #expect(finished.count == 1, "\(log)")
            #expect(finished.first.map(Self.metadata)?["code"] == code)
            #expect(finished.first.map(Self.metadata)?["players"] == "2")

            var opened = 0, closed = 0
            var errors: [String: Int] = [:]
            for line in lines where line.hasSuffix("Connections") {
                let fields = Self.metadata(line)
                opened += Int(fields["opened"] ?? "") ?? 0
                closed += Int(fields["closed"] ?? "") ?? 0
                for entry in (fields["errors"] ?? "").split(separator: ",") {
                    let parts = entry.split(separator: ":")
                    errors[String(parts[0]), default: 0] += Int(parts[1]) ?? 0
                }
            }
            #expect(opened == 2 && closed == 2, "\(log)")
            #expect(errors == ["ROOM_NOT_FOUND": requests / 2 + 1], "\(log)")
            // Over fifty requests, and the log holds a handful of lines: none names an operation.
            #expect(!log.contains("getRoom") && !log.contains("submitScore"))
            let afterStart = lines.drop { !$0.hasSuffix("Listening") }.dropFirst()
            #expect(afterStart.count <= 6, "\(log)")
        }
    }

    /// `--log-format json`: every line the server writes on standard error — the admin token notice,
    /// start-up, a game created and finished, the summaries, shutdown — is one JSON object with the
    /// time, level, label, message and source, and the facts under `metadata`.
    @Test func theJSONLogIsOneObjectPerLine() async throws {
        let server = try await ServerProcess.start(["--no-persist", "--log-level", "info", "--log-summary-interval", "1", "--log-format", "json"])
        let code: String
        do {
            code = try await server.connect { ann in
                let created = try await ann.call(
                    "createRoom", ["pointLimit": 100, "pointValue": 1, "playerCount": 2, "playerName": "Ann \"quoted\"\n"])
                return try #require((created["result"] as? [String: Any]).flatMap { ($0["room"] as? [String: Any])?["id"] as? String })
            }
            try await server.connect { bo in _ = try await bo.call("getRoom", ["code": "ZZZZZZ"]) }
            #expect(await eventually(timeout: .seconds(10)) { server.log.contains("\"Connections\"") })
        } catch {
            await server.stop()
            throw error
        }
        #expect(await server.stop() == 0)
        let lines = server.log.split(separator: "\n")
        var records: [[String: Any]] = []
        for line in lines {
            let parsed = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(parsed != nil, "not a JSON object: \(line)")
            if let parsed { records.append(parsed) }
        }
        #expect(records.count == lines.count && records.count >= 5, "\(server.log)")
        for record in records {
            #expect(Set(record.keys).isSuperset(of: ["time", "level", "label", "message", "source"]), "\(record)")
            let time = record["time"] as? String ?? ""
            let parser = ISO8601DateFormatter()
            parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            #expect(time.count == 24 && parser.date(from: time) != nil, "\(time)")
        }
        #expect(records.contains { ($0["message"] as? String)?.hasPrefix("admin token: ") == true && $0["level"] as? String == "notice" })
        let created = try #require(records.first { $0["message"] as? String == "Game created" }, "\(server.log)")
        #expect(created["level"] as? String == "info")
        #expect(created["metadata"] as? [String: String] == ["kind": "rummy", "id": code, "code": code])
        let summary = try #require(records.first { $0["message"] as? String == "Connections" && (($0["metadata"] as? [String: Any])?["errors"] as? String)?.contains("ROOM_NOT_FOUND") == true }, "\(server.log)")
        #expect(summary["label"] as? String == "parlor")
    }
}
