import Foundation
import NIOCore
import Testing
import WebSocketCore

/// A test client speaking Parlor's JSON envelope over one WebSocket. Not thread-safe: one test task.
public final class JSONConnection: @unchecked Sendable {
    public let webSocket: WebSocket
    private var inbound: WebSocket.Inbound.AsyncIterator
    private var nextID = 0
    /// Events that arrived while waiting for a reply, in order.
    public private(set) var pendingEvents: [[String: Any]] = []
    public private(set) var userId: String?
    public private(set) var token: String?
    /// Every message received, as the server sent it, when `recordsFrames` is on (for tests that scan
    /// what reached a client, byte for byte).
    public private(set) var frames: [String] = []
    public var recordsFrames = false

    public init(_ webSocket: WebSocket) {
        self.webSocket = webSocket
        inbound = webSocket.inbound.makeAsyncIterator()
    }

    @discardableResult
    public func hello(token: String? = nil) async throws -> [String: Any] {
        let reply = try await call("hello", token.map { ["token": $0] } ?? [:])
        let result = try #require(reply["result"] as? [String: Any])
        userId = result["userId"] as? String
        self.token = result["token"] as? String
        return result
    }

    /// Sends a request and returns its reply (`result` or `error`), keeping events that arrive first.
    public func call(_ op: String, _ args: [String: Any] = [:]) async throws -> [String: Any] {
        nextID += 1
        let id = nextID
        try await sendJSON(["id": id, "op": op, "args": args])
        return try await reply(to: id)
    }

    public func sendJSON(_ object: [String: Any]) async throws {
        let data = try JSONSerialization.data(withJSONObject: object)
        try await webSocket.send(text: String(decoding: data, as: UTF8.self))
    }

    public func reply(to id: Int) async throws -> [String: Any] {
        while true {
            let frame = try await nextFrame()
            if let frameID = frame["id"] as? Int, frameID == id { return frame }
            if frame["id"] is NSNull, frame["error"] != nil { return frame }
            pendingEvents.append(frame)
        }
    }

    /// The next event of subscription `sub` (buffered ones first) that is not a `presence` or `node`
    /// event: a game's stream carries who is connected, and in a cluster which node serves it, beside
    /// its views, and tests of the views read past them (they stay buffered for `nextPresence` and
    /// `nextNode`).
    public func nextEvent(sub: Int, timeout: Duration = .seconds(5)) async throws -> [String: Any] {
        try await nextEvent(sub: sub, timeout: timeout) { !Self.asides.contains($0["event"] as? String ?? "") }
    }

    /// The events a game's stream carries beside its views.
    static let asides: Set<String> = ["presence", "node", "access"]

    /// The next `node` event of subscription `sub` (buffered ones first): which node of a cluster
    /// serves the game.
    public func nextNode(sub: Int, timeout: Duration = .seconds(5)) async throws -> [String: Any] {
        try await nextEvent(sub: sub, timeout: timeout) { $0["event"] as? String == "node" }
    }

    /// The next `access` event of subscription `sub` (buffered ones first): the game's access settings.
    public func nextAccess(sub: Int, timeout: Duration = .seconds(5)) async throws -> [String: Any] {
        try await nextEvent(sub: sub, timeout: timeout) { $0["event"] as? String == "access" }
    }

    /// The next `presence` event of subscription `sub` (buffered ones first).
    public func nextPresence(sub: Int, timeout: Duration = .seconds(5)) async throws -> [String: Any] {
        try await nextEvent(sub: sub, timeout: timeout) { $0["event"] as? String == "presence" }
    }

    private func nextEvent(sub: Int, timeout: Duration, where wanted: ([String: Any]) -> Bool) async throws -> [String: Any] {
        if let index = pendingEvents.firstIndex(where: { ($0["sub"] as? Int) == sub && wanted($0) }) {
            return pendingEvents.remove(at: index)
        }
        while true {
            let frame = try await nextFrame(timeout: timeout)
            if (frame["sub"] as? Int) == sub, wanted(frame) { return frame }
            pendingEvents.append(frame)
        }
    }

    public func nextFrame(timeout: Duration = .seconds(5)) async throws -> [String: Any] {
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
        if recordsFrames { frames.append(String(decoding: message.data.readableBytesView, as: UTF8.self)) }
        return try #require(try JSONSerialization.jsonObject(with: Data(message.data.readableBytesView)) as? [String: Any])
    }
}

public struct UnsafeTransfer<Value>: @unchecked Sendable {
    public var value: Value
    public init(_ value: Value) { self.value = value }
}

public struct TestTimeout: Error {
    public init() {}
}
public struct ConnectionEnded: Error {
    public init() {}
}

extension Dictionary where Key == String, Value == Any {
    public var result: [String: Any]? { self["result"] as? [String: Any] }
    public var errorCode: String? { (self["error"] as? [String: Any])?["code"] as? String }
    public var errorStatus: String? { (self["error"] as? [String: Any])?["status"] as? String }
    public var errorMessage: String? { (self["error"] as? [String: Any])?["message"] as? String }
}

