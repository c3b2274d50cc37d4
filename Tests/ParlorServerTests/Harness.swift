import Foundation
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
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (_ harness: ParlorHarness) async throws -> R
) async throws -> R {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.persist = false
    configuration.shutdownGracePeriod = .milliseconds(300)
    configuration.webSocket.closeTimeout = .milliseconds(500)
    configure(&configuration)
    var logger = Logger(label: "parlor.test")
    logger.logLevel = .warning
    let server = try await ParlorServer(configuration: configuration, store: store, clock: clock, logger: logger)
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

    /// Opens a connection for `body`; with `signIn`, it says hello first.
    func connect<R: Sendable>(
        signIn: Bool = true, token: String? = nil, headers: [(String, String)] = [], path: String = "/ws",
        _ body: (JSONConnection) async throws -> R
    ) async throws -> R {
        var configuration = WebSocketClientConfiguration()
        configuration.headers = headers
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

/// A test client speaking Parlor's JSON envelope over one WebSocket. Not thread-safe: one test task.
final class JSONConnection: @unchecked Sendable {
    let webSocket: WebSocket
    private var inbound: WebSocket.Inbound.AsyncIterator
    private var nextID = 0
    /// Events that arrived while waiting for a reply, in order.
    private(set) var pendingEvents: [[String: Any]] = []
    private(set) var userId: String?
    private(set) var token: String?

    init(_ webSocket: WebSocket) {
        self.webSocket = webSocket
        inbound = webSocket.inbound.makeAsyncIterator()
    }

    @discardableResult
    func hello(token: String? = nil) async throws -> [String: Any] {
        let reply = try await call("hello", token.map { ["token": $0] } ?? [:])
        let result = try #require(reply["result"] as? [String: Any])
        userId = result["userId"] as? String
        self.token = result["token"] as? String
        return result
    }

    /// Sends a request and returns its reply (`result` or `error`), keeping events that arrive first.
    func call(_ op: String, _ args: [String: Any] = [:]) async throws -> [String: Any] {
        nextID += 1
        let id = nextID
        try await sendJSON(["id": id, "op": op, "args": args])
        return try await reply(to: id)
    }

    func sendJSON(_ object: [String: Any]) async throws {
        let data = try JSONSerialization.data(withJSONObject: object)
        try await webSocket.send(text: String(decoding: data, as: UTF8.self))
    }

    func reply(to id: Int) async throws -> [String: Any] {
        while true {
            let frame = try await nextFrame()
            if let frameID = frame["id"] as? Int, frameID == id { return frame }
            if frame["id"] is NSNull, frame["error"] != nil { return frame }
            pendingEvents.append(frame)
        }
    }

    /// The next event of subscription `sub` (buffered ones first).
    func nextEvent(sub: Int, timeout: Duration = .seconds(5)) async throws -> [String: Any] {
        if let index = pendingEvents.firstIndex(where: { ($0["sub"] as? Int) == sub }) {
            return pendingEvents.remove(at: index)
        }
        while true {
            let frame = try await nextFrame(timeout: timeout)
            if (frame["sub"] as? Int) == sub { return frame }
            pendingEvents.append(frame)
        }
    }

    func nextFrame(timeout: Duration = .seconds(5)) async throws -> [String: Any] {
        let iterator = UnsafeTransfer(inbound)
        let result: (WebSocketMessage?, WebSocket.Inbound.AsyncIterator) = try await withThrowingTaskGroup(
            of: (WebSocketMessage?, UnsafeTransfer<WebSocket.Inbound.AsyncIterator>)?.self
        ) { group in
            group.addTask {
                var it = iterator.value
                let message = try await it.next()
                return (message, UnsafeTransfer(it))
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            guard let first = try await group.next(), let value = first else {
                group.cancelAll()
                throw TestTimeout()
            }
            group.cancelAll()
            return (value.0, value.1.value)
        }
        inbound = result.1
        guard let message = result.0 else { throw ConnectionEnded() }
        return try #require(try JSONSerialization.jsonObject(with: Data(message.data.readableBytesView)) as? [String: Any])
    }
}

struct UnsafeTransfer<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

struct TestTimeout: Error {}
struct ConnectionEnded: Error {}

extension Dictionary where Key == String, Value == Any {
    var result: [String: Any]? { self["result"] as? [String: Any] }
    var errorCode: String? { (self["error"] as? [String: Any])?["code"] as? String }
    var errorStatus: String? { (self["error"] as? [String: Any])?["status"] as? String }
    var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
}

/// A minimal HTTP/1.1 client over a raw socket (FoundationNetworking is not part of this package).
enum RawHTTP {
    static func send(port: Int, method: String, path: String, body: Data?, token: String?) async throws -> (Int, Any?) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let body { bytes += body }
        let response = try await RawSocket.exchange(port: port, bytes: bytes)
        let text = String(decoding: response, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { throw TestTimeout() }
        let statusLine = text[..<text.index(text.startIndex, offsetBy: min(12, text.count))]
        let status = Int(statusLine.split(separator: " ")[1]) ?? 0
        let bodyText = text[headEnd.upperBound...]
        if bodyText.isEmpty { return (status, nil) }
        let json = try? JSONSerialization.jsonObject(with: Data(bodyText.utf8))
        return (status, json ?? String(bodyText))
    }
}
