import Foundation
import FuzzSupport
import NIOCore
import NIOEmbedded
import NIOHTTP1
@testable import WebSocketCore

// Fuzzes a server connection from its first byte: the request-head size limit, NIO's HTTP/1.1 parser,
// pipelined and keep-alive requests, the upgrade handshake's checks and extension negotiation, the
// switch to WebSocket and the frames that follow it, on an `EmbeddedChannel` with the handlers
// `WebSocketServer` gives a connection (less TLS), added by the same function.
//
// Input: five choice bytes, then what the client sends.
//   0  bit 0: permessage-deflate enabled; bits 1–2: the application's answer to an upgrade (accept,
//      accept with the first subprotocol offered, refuse, accept with one not offered); bit 3: a graceful
//      shutdown begins, bit 4: the grace period ends (both before read number byte 3, or with bit 7
//      while the application answers request number byte 3); bit 5: time runs on past every timer at
//      the end; bit 6: only the origin https://play.example may upgrade
//   1  low nibble: the request-head limit, high nibble: the body limit (indexes into the lists below)
//   2  how the bytes arrive: 0 in one read, n > 0 in reads of 1...n bytes
//   3  the read (or request) at which the shutdown events of byte 0 happen
//   4  low nibble: the WebSocket message limit (index into `messageLimits`)
//
// Checked on every input:
// - everything written is a sequence of well-formed HTTP/1.1 responses (status line, token header
//   names, a Content-Length that matches the body), nothing after one that says `Connection: close`,
//   answers to plain requests in the order they came;
// - a 101 answers only a request that meets RFC 6455 §4.2.1 by `UpgradeOracle`'s own reading, carries
//   the Accept value of its key and the extension answer negotiation gives, and our client accepts
//   that answer; after it come only well-formed server frames, a close frame last;
// - a 431 only when more bytes than the head limit arrived;
// - when the connection closes, its event stream ends (a server task waiting on it would otherwise
//   wait forever).

let headLimits = [64, 256, 1024, 16 * 1024]
let bodyLimits = [0, 16, 1024, 1 << 20]
let messageLimits = [125, 1024, 65_536, 1 << 20]
/// `FUZZ_SHOW=1` prints what the server wrote, to read a failing input's story.
let showWrites = ProcessInfo.processInfo.environment["FUZZ_SHOW"] != nil

/// What the connection's consumer saw; touched only on the fuzzing thread.
final class ConnectionLog: @unchecked Sendable {
    var requests: [HTTPRequest] = []
    var upgradeRequests: [WebSocketUpgradeRequest] = []
    var upgraded: [UpgradedConnection] = []
    var streamEnded = false
    /// Called before the application's answer to each request, with the request's number.
    var beforeAnswer: (Int) -> Void = { _ in }
}

enum UpgradeAnswer: UInt8 {
    case accept, acceptFirstSubprotocol, refuse, acceptUnofferedSubprotocol
}

struct FuzzApplication: WebSocketServerApplication {
    let answer: UpgradeAnswer
    let compression: PerMessageDeflateConfiguration?
    let log: ConnectionLog

    func shouldUpgrade(_ request: WebSocketUpgradeRequest) -> WebSocketUpgradeDecision {
        UpgradeOracle.checkAccepted(request, compression: compression)
        log.upgradeRequests.append(request)
        switch answer {
        case .accept: return .accept()
        case .acceptFirstSubprotocol: return .accept(subprotocol: request.requestedSubprotocols.first, headers: [("X-Fuzz", "1")])
        case .refuse: return .reject(.forbidden, reason: "refused")
        case .acceptUnofferedSubprotocol: return .accept(subprotocol: "never-offered")
        }
    }

    func handle(_ webSocket: WebSocket, request: WebSocketUpgradeRequest) async {}

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        fatalError("requests are answered by the fuzzer's consumer")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let flags = input.byte()
    let limits = input.byte()
    let chunkSeed = input.byte()
    let eventRead = Int(input.byte())
    let webSocketLimits = input.byte()
    let bytes = Array(input.rest)

    var configuration = WebSocketServerConfiguration()
    configuration.maxHeaderSize = headLimits[Int(limits & 0x0F) % headLimits.count]
    configuration.maxRequestBodySize = bodyLimits[Int(limits >> 4) % bodyLimits.count]
    configuration.webSocket = configuration.webSocket.withMessageLimit(messageLimits[Int(webSocketLimits & 0x0F) % messageLimits.count])
    configuration.webSocket.compression = flags & 1 != 0 ? PerMessageDeflateConfiguration() : nil
    if flags & 64 != 0 { configuration.allowedOrigins = .allowList(["https://play.example"]) }
    let answer = UpgradeAnswer(rawValue: (flags >> 1) & 3) ?? .accept

    let log = ConnectionLog()
    let application = FuzzApplication(answer: answer, compression: configuration.webSocket.compression, log: log)
    let executor = InlineExecutor()
    let channel = EmbeddedChannel()
    let shutdown = ShutdownSignal()
    do {
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 40_000)).wait()
        let events = try installServerHandlers(
            on: channel, configuration: configuration, application: application, shutdown: shutdown)
        startConsumer(of: events, log: log, on: executor)
    } catch {
        fatalError("could not set up the connection: \(error)")
    }
    executor.drain()

    let shutdownEvents = {
        // As `WebSocketServer.shutdown` does: the signal first, then the event to each connection.
        if flags & 8 != 0 {
            shutdown.fire()
            channel.pipeline.fireUserInboundEventTriggered(ServerShutdownEvent())
        }
        if flags & 16 != 0 { channel.pipeline.fireUserInboundEventTriggered(ServerGoingAwayEvent()) }
    }
    if flags & 128 != 0 {
        log.beforeAnswer = { number in if number == eventRead { shutdownEvents() } }
    }
    var offset = 0
    for (index, length) in chunkLengths(total: bytes.count, seed: chunkSeed).enumerated() {
        defer { offset += length }
        if index == eventRead && flags & 128 == 0 {
            shutdownEvents()
            channel.embeddedEventLoop.run()
            executor.drain()
        }
        guard channel.isActive else { break }
        do {
            try channel.writeInbound(ByteBuffer(bytes: bytes[offset..<(offset + length)]))
        } catch {
            // An error no handler dealt with reached the end of the pipeline; NIO drops those.
        }
        channel.embeddedEventLoop.run()
        executor.drain()
    }
    if flags & 32 != 0 {
        channel.embeddedEventLoop.advanceTime(by: .seconds(600))
        executor.drain()
    }
    var written = ByteBuffer()
    while var chunk = try? channel.readOutbound(as: ByteBuffer.self) {
        written.writeBuffer(&chunk)
    }
    _ = try? channel.finish(acceptAlreadyClosed: true)
    channel.embeddedEventLoop.run()
    executor.drain()
    log.beforeAnswer = { _ in }  // it holds the channel, which holds the log

    if showWrites {
        let text = "--- written:\n\(String(decoding: written.readableBytesView, as: UTF8.self).debugDescription)\n"
        FileHandle.standardError.write(Data(text.utf8))
    }
    require(log.streamEnded, "the connection closed but its event stream did not end")
    ResponseChecks(log: log, configuration: configuration, inputLength: bytes.count).check(Array(written.readableBytesView))
    return 0
}

/// The handlers a server connection has, added as `WebSocketServer` adds them, behind the stand-in
/// for the socket.
func installServerHandlers(
    on channel: EmbeddedChannel, configuration: WebSocketServerConfiguration, application: FuzzApplication,
    shutdown: ShutdownSignal
) throws -> AsyncStream<ServerConnectionEvent> {
    let pipeline = channel.pipeline.syncOperations
    try pipeline.addHandler(ClosedSocketStandIn())
    return try HTTPConnectionHandler.addHandlers(
        to: pipeline, configuration: configuration, application: application, shutdown: shutdown)
}

/// Serves the connection's events as `ServerConnection.run` does, answering each plain request with
/// its own body and its number, so the checks can tell the answers apart.
func startConsumer(of events: AsyncStream<ServerConnectionEvent>, log: ConnectionLog, on executor: InlineExecutor) {
    Task(executorPreference: executor) {
        for await event in events {
            switch event {
            case .request(let request, let promise):
                let number = log.requests.count
                log.requests.append(request)
                log.beforeAnswer(number)
                var headers = HTTPHeaders()
                headers.add(name: "X-Fuzz-Request", value: "\(number)")
                promise.succeed(HTTPResponse(status: .ok, headers: headers, body: request.body))
            case .webSocket(let upgraded):
                log.upgraded.append(upgraded)
            }
        }
        log.streamEnded = true
    }
}
