import ParlorTestSupport
import NIOCore
import NIOPosix
import Synchronization
import SystemTLS

/// What one side of some connections saw, shared between event loops and the test.
final class Recorder: Sendable {
    struct Snapshot: Sendable {
        var handshakes: [TLSEvent] = []
        var tlsErrors: [TLSError] = []
        var otherErrors: [String] = []
        var received: [UInt8] = []
        var active = 0
        var inactive = 0
        /// Promises of `initialWrites` that succeeded / failed.
        var writesSucceeded = 0
        var writesFailed = 0
    }

    private let state = Mutex(Snapshot())

    var snapshot: Snapshot { state.withLock { $0 } }
    var receivedCount: Int { state.withLock { $0.received.count } }

    func update(_ body: (inout Snapshot) -> Void) { state.withLock { body(&$0) } }

    func record(error: Error) {
        update {
            if let tls = error as? TLSError { $0.tlsErrors.append(tls) } else { $0.otherErrors.append("\(error)") }
        }
    }

    /// Polls `condition` until it holds; throws after `timeout`, describing what was seen.
    func waitUntil(
        _ what: String, timeout: Duration = .seconds(15), _ condition: (Snapshot) -> Bool
    ) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !condition(snapshot) {
            if clock.now > deadline {
                let s = snapshot
                throw TestFailure(
                    "timed out waiting for \(what); handshakes \(s.handshakes), tlsErrors \(s.tlsErrors), "
                        + "otherErrors \(s.otherErrors), received \(s.received.count) bytes, active \(s.active), "
                        + "inactive \(s.inactive)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Records everything and, as the server, echoes every byte back. When `closeOnBye`, a read ending in "BYE\n"
/// makes the server close the connection (with close_notify) after echoing.
final class RecordingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let recorder: Recorder
    private let echo: Bool
    private let closeOnBye: Bool
    private let writeOnAdd: [UInt8]?
    private let initialWrites: [[UInt8]]

    /// `writeOnAdd` is written and flushed as soon as the handler is added (before the connection is even active);
    /// `initialWrites` are written, then flushed together, when the connection becomes active.
    init(
        recorder: Recorder, echo: Bool, closeOnBye: Bool = false, writeOnAdd: [UInt8]? = nil,
        initialWrites: [[UInt8]] = []
    ) {
        self.recorder = recorder
        self.echo = echo
        self.closeOnBye = closeOnBye
        self.writeOnAdd = writeOnAdd
        self.initialWrites = initialWrites
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if let writeOnAdd {
            context.writeAndFlush(Self.wrapOutboundOut(ByteBuffer(bytes: writeOnAdd)), promise: nil)
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        recorder.update { $0.active += 1 }
        context.fireChannelActive()
        guard !initialWrites.isEmpty else { return }
        let recorder = self.recorder
        for bytes in initialWrites {
            context.write(Self.wrapOutboundOut(ByteBuffer(bytes: bytes))).whenComplete { result in
                recorder.update {
                    if case .success = result { $0.writesSucceeded += 1 } else { $0.writesFailed += 1 }
                }
            }
        }
        context.flush()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = Self.unwrapInboundIn(data)
        recorder.update { $0.received.append(contentsOf: buffer.readableBytesView) }
        if echo {
            context.write(Self.wrapOutboundOut(buffer), promise: nil)
            if closeOnBye, buffer.readableBytesView.suffix(4).elementsEqual(Array("BYE\n".utf8)) {
                context.flush()
                context.close(promise: nil)
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if echo { context.flush() }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSEvent {
            recorder.update { $0.handshakes.append(event) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        recorder.record(error: error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        recorder.update { $0.inactive += 1 }
        context.fireChannelInactive()
    }
}

/// A TLS echo server on 127.0.0.1, built from `TLSServerContext`.
struct TLSEchoServer: Sendable {
    let channel: Channel
    let recorder: Recorder

    var port: Int { channel.localAddress!.port! }

    static func start(
        _ context: TLSServerContext, closeOnBye: Bool = false, childAutoRead: Bool = true
    ) async throws -> TLSEchoServer {
        let recorder = Recorder()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: childAutoRead)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(context.makeServerHandler())
                    if !childAutoRead {
                        try channel.pipeline.syncOperations.addHandler(ManualReadHandler())
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        RecordingHandler(recorder: recorder, echo: true, closeOnBye: closeOnBye))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return TLSEchoServer(channel: channel, recorder: recorder)
    }

    func stop() async throws {
        try await waitFor(channel.close())
    }
}

/// With autoRead off: asks for one read when the connection starts and one more after every burst of plaintext,
/// as an application doing its own flow control would.
final class ManualReadHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func channelActive(context: ChannelHandlerContext) {
        context.fireChannelActive()
        context.read()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        context.read()
    }
}

/// Connects to 127.0.0.1:`port`, with a client `TLSHandler` for `hostname` unless `tls` is nil.
func connect(
    port: Int, tls: (context: TLSClientContext, hostname: String?)?, recorder: Recorder,
    writeOnAdd: [UInt8]? = nil, initialWrites: [[UInt8]] = []
) async throws -> Channel {
    try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                if let tls {
                    try channel.pipeline.syncOperations.addHandler(
                        tls.context.makeClientHandler(serverHostname: tls.hostname))
                }
                try channel.pipeline.syncOperations.addHandler(
                    RecordingHandler(
                        recorder: recorder, echo: false, writeOnAdd: writeOnAdd, initialWrites: initialWrites))
            }
        }
        .connect(host: "127.0.0.1", port: port)
        .get()
}

extension ByteBuffer {
    init(bytes: [UInt8]) {
        self = ByteBufferAllocator().buffer(capacity: bytes.count)
        writeBytes(bytes)
    }
}

/// Deterministic pseudo-random bytes (so a failure is reproducible).
func patternBytes(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
    var state = seed
    var out = [UInt8]()
    out.reserveCapacity(count)
    for _ in 0..<count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        out.append(UInt8(truncatingIfNeeded: state >> 33))
    }
    return out
}

/// Awaits `future`, failing after `timeout` instead of hanging the test run when a promise is never completed.
@discardableResult
func waitFor<T: Sendable>(_ future: EventLoopFuture<T>, timeout: TimeAmount = .seconds(15)) async throws -> T {
    let promise = future.eventLoop.makePromise(of: T.self)
    future.cascade(to: promise)
    let timer = future.eventLoop.scheduleTask(in: timeout) {
        promise.fail(TestFailure("a future was not completed within \(timeout)"))
    }
    defer { timer.cancel() }
    return try await promise.futureResult.get()
}
