import Foundation
import ParlorTestSupport
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ParlorRules
import ParlorWire
import Testing
import WebSocketCore
@testable import ParlorServer

/// Runs a Parlor server on 127.0.0.1:0 for the duration of `body`.
func withParlor<R: Sendable>(
    store: any ParlorStore = InMemoryStore(), clock: any ParlorClock = SystemClock(),
    games: [any GameModule] = ParlorGames.standard,
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (_ harness: ParlorHarness) async throws -> R
) async throws -> R {
    var configuration = ServerConfiguration()
    configuration.listener.port = 0
    configuration.persist = false
    configuration.listener.shutdownGracePeriod = .milliseconds(300)
    configuration.listener.webSocket.closeTimeout = .milliseconds(500)
    configure(&configuration)
    var logger = Logger(label: "parlor.test")
    logger.logLevel = .warning
    let server = try await ParlorServer(configuration: configuration, store: store, clock: clock, logger: logger, games: games)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await server.run() }
        let port = try await server.localAddress().port!
        let harness = ParlorHarness(server: server, port: port)
        do {
            let result = try await body(harness)
            server.beginGracefulShutdown()
            try await group.waitForAll()
            return result
        } catch {
            server.beginGracefulShutdown()
            try? await group.waitForAll()
            throw error
        }
    }
}

struct ParlorHarness: Sendable {
    let server: ParlorServer
    let port: Int
    var services: ParlorServices { server.services }
    var url: String { "ws://127.0.0.1:\(port)/ws" }

    /// Opens a connection for `body`, from `localAddress` (another loopback address) when given; with
    /// `signIn`, it says hello first.
    func connect<R: Sendable>(
        signIn: Bool = true, token: String? = nil, headers: [(String, String)] = [], path: String = "/ws",
        from localAddress: String? = nil, _ body: (JSONConnection) async throws -> R
    ) async throws -> R {
        var configuration = WebSocketClientConfiguration()
        configuration.headers = headers
        configuration.localAddress = localAddress
        configuration.webSocket.closeTimeout = .milliseconds(500)
        return try await WebSocketClient.connect(to: "ws://127.0.0.1:\(port)\(path)", configuration: configuration) { ws in
            let connection = JSONConnection(ws)
            if signIn { try await connection.hello(token: token) }
            return try await body(connection)
        }
    }

    /// An HTTP request; returns the status and the parsed JSON body (nil when empty).
    func http(_ method: String, _ path: String, body: [String: Any]? = nil, token: String? = nil) async throws -> (Int, Any?) {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await RawHTTP.send(port: port, method: method, path: path, body: data, token: token)
    }
}

/// A minimal HTTP/1.1 client over a raw socket (FoundationNetworking is not part of this package).
enum RawHTTP {
    struct Response {
        var status: Int
        /// Header names lowercased.
        var headers: [String: String]
        /// The body as JSON, else as text; nil when empty.
        var body: Any?
        var text: String { body as? String ?? "" }
    }

    static func send(port: Int, method: String, path: String, body: Data?, token: String?) async throws -> (Int, Any?) {
        let response = try await exchange(port: port, method: method, path: path, body: body, token: token)
        return (response.status, response.body)
    }

    /// One request on a fresh connection, from `localAddress` when given. A connection the server
    /// closes without answering throws `ConnectionEnded`.
    static func exchange(
        port: Int, method: String, path: String, body: Data? = nil, token: String? = nil, from localAddress: String? = nil
    ) async throws -> Response {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let body { bytes += body }
        let response = try await RawSocket.exchange(port: port, bytes: bytes, from: localAddress)
        let text = String(decoding: response, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { throw ConnectionEnded() }
        let lines = text[..<headEnd.lowerBound].split(separator: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        let status = statusParts.count > 1 ? Int(statusParts[1]) ?? 0 : 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let bodyText = text[headEnd.upperBound...]
        if bodyText.isEmpty { return Response(status: status, headers: headers, body: nil) }
        let json = try? JSONSerialization.jsonObject(with: Data(bodyText.utf8))
        return Response(status: status, headers: headers, body: json ?? String(bodyText))
    }
}

/// The hosts of the standard games, for tests that look behind the wire.
extension ParlorServices {
    func host<Game: GameDefinition>(_ game: Game.Type) -> GameHost<Game> {
        games.lazy.compactMap { $0 as? GameHost<Game> }.first!
    }

    var lobbyDirectory: GameDirectory<LobbyCode, GameActor<WordLobbyGame>> { host(WordLobbyGame.self).directory }

    /// Expires abandoned rooms only; returns how many went.
    func expireAbandonedRooms() async -> Int { await expireAbandoned(host(RummyGame.self)) }

    /// Expires abandoned lobbies only; returns how many went.
    func expireAbandonedLobbies() async -> Int { await expireAbandoned(host(WordLobbyGame.self)) }
}

extension GameDirectory {
    func lobby(id: String) -> Entry? { game(id: id) }
}
