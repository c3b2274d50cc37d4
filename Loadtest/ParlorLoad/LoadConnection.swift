import Foundation
import NIOCore
import ParlorRules
import ParlorWire
import WebSocketCore

/// Why a generator connection failed: the reasons a report counts.
enum LoadFailure: Error, CustomStringConvertible {
    /// The server answered a request with an error.
    case reply(code: String)
    /// The connection ended before we ended it.
    case closed(WebSocketCloseStatus)
    /// A reply we could not read as the operation's result.
    case unreadableReply(String)
    /// A phase did not finish in time.
    case timeout(String)
    /// The room this connection belongs to failed elsewhere.
    case roomFailed

    var description: String {
        switch self {
        case .reply(let code): "error reply \(code)"
        case .closed(let status): "closed by the server: \(status.code)"
        case .unreadableReply(let operation): "unreadable \(operation) reply"
        case .timeout(let phase): "\(phase) timed out"
        case .roomFailed: "its room failed to set up"
        }
    }
}

/// One generator connection speaking Parlor's envelope: requests are built with ParlorWire, replies are
/// awaited one at a time (set-up is request/response), and events that arrive meanwhile go to a handler.
struct LoadConnection {
    let webSocket: WebSocket
    private var inbound: WebSocket.Inbound.AsyncIterator
    private var lastID: Int64 = 0

    init(_ webSocket: WebSocket) {
        self.webSocket = webSocket
        inbound = webSocket.inbound.makeAsyncIterator()
    }

    /// Sends `operation` and returns its result decoded as `Result`. Events read while waiting are passed
    /// to `onEvent`; an error reply throws `LoadFailure.reply`.
    mutating func call<Result: Decodable & Sendable>(
        _ operation: ParlorWire.Operation, as _: Result.Type = Result.self, onEvent: (ScannedFrame) -> Void = { _ in }
    ) async throws -> Result {
        lastID += 1
        let id = lastID
        let frame = try Request(id: .number(id), operation: operation).encoded()
        try await webSocket.send(WebSocketMessage(kind: .text, data: ByteBuffer(bytes: frame)))
        while true {
            guard let message = try await next() else { throw LoadFailure.closed(await webSocket.closeStatus) }
            let scanned = ScannedFrame(message.data)
            switch scanned {
            case .reply(id, _, let error?):
                throw LoadFailure.reply(code: error)
            case .reply(id, _, nil):
                let reply = try? JSONDecoder().decode(
                    ServerFrame.Reply<Result>.self, from: Data(message.data.readableBytesView))
                guard let result = reply?.result else { throw LoadFailure.unreadableReply(operation.name.rawValue) }
                return result
            case .reply(_, _, let error?):
                throw LoadFailure.reply(code: error)
            default:
                onEvent(scanned)
            }
        }
    }

    /// The node of a cluster that serves the game just subscribed to: its `node` event, which follows
    /// the game's first version. Other events go to `onEvent`.
    mutating func servingNode(onEvent: (ScannedFrame) -> Void = { _ in }) async throws -> String {
        while true {
            guard let message = try await next() else { throw LoadFailure.closed(await webSocket.closeStatus) }
            let scanned = ScannedFrame(message.data)
            if case .event(_, "node", _) = scanned {
                guard let served = try? JSONDecoder().decode(ServerFrame.Event<ServingNode>.self, from: Data(message.data.readableBytesView)).data
                else { throw LoadFailure.unreadableReply("node event") }
                return served.node
            }
            onEvent(scanned)
        }
    }

    /// The next message, nil once the connection has closed.
    mutating func next() async throws -> WebSocketMessage? {
        try await inbound.next()
    }
}

/// `null` results (`startGame` for lobbies, `leaveRoom`) and results whose content we do not need.
struct IgnoredResult: Decodable, Sendable {
    init(from decoder: any Decoder) throws {}
}

/// The frames of one player's `submitScore` requests, written by hand: only the id and the score change
/// between them, and thousands go out every second. The first frame is checked against ParlorWire's own
/// decoding, so the template cannot drift from the wire contract unnoticed.
struct SubmitScoreFrames: Sendable {
    private let head = Array(#"{"id":"#.utf8)
    private let middle: [UInt8]
    private let tail = Array("}}".utf8)

    init(roomCode: String, playerId: UserID, round: Int) throws {
        middle = Array(
            #","op":"submitScore","args":{"playerId":"\#(playerId.rawValue)","roomCode":"\#(roomCode)","round":\#(round),"score":"#
                .utf8)
        let sample = frame(id: 1, score: 1)
        let expected = Request(
            id: .number(1),
            operation: .submitScore(SubmitScoreArguments(roomCode: roomCode, playerId: playerId, round: round, score: 1)))
        guard case .success(let decoded) = Request.decode(sample.readableBytesView), decoded == expected else {
            throw LoadFailure.unreadableReply("submitScore template")
        }
    }

    func frame(id: Int64, score: Int) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(head.count + middle.count + tail.count + 24)
        buffer.writeBytes(head)
        buffer.writeString(String(id))
        buffer.writeBytes(middle)
        buffer.writeString(String(score))
        buffer.writeBytes(tail)
        return buffer
    }
}

/// A darts player's `recordVisit` frames, written from a template (a visit is sent every few seconds
/// per player, but at thousands of matches the generator shares the machine with the server).
struct VisitFrames: Sendable {
    private let head = Array(#"{"id":"#.utf8)
    private let totalMiddle: [UInt8]
    private let finishMiddle: [UInt8]
    private let tail = Array("}}".utf8)

    init(code: String, playerId: UserID) throws {
        totalMiddle = Array(#","op":"recordVisit","args":{"code":"\#(code)","playerId":"\#(playerId.rawValue)","total":"#.utf8)
        finishMiddle = Array(#","op":"recordVisit","args":{"code":"\#(code)","darts":["T20","S1","D20"],"playerId":"\#(playerId.rawValue)""#.utf8)
        for (visit, expected) in [
            (DartsScript.Visit.total(60), RecordVisitArguments(code: code, playerId: playerId, total: 60)),
            (.finish, RecordVisitArguments(code: code, playerId: playerId, darts: ["T20", "S1", "D20"])),
        ] {
            guard case .success(let decoded) = Request.decode(frame(id: 1, visit: visit).readableBytesView),
                  decoded == Request(id: .number(1), operation: .recordVisit(expected))
            else {
                throw LoadFailure.unreadableReply("recordVisit template")
            }
        }
    }

    func frame(id: Int64, visit: DartsScript.Visit) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(head.count + finishMiddle.count + tail.count + 24)
        buffer.writeBytes(head)
        buffer.writeString(String(id))
        switch visit {
        case .total(let total):
            buffer.writeBytes(totalMiddle)
            buffer.writeString(String(total))
        case .finish:
            buffer.writeBytes(finishMiddle)
        }
        buffer.writeBytes(tail)
        return buffer
    }
}
