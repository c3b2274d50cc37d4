import NIOCore
import Synchronization

/// Bytes a server's connections received and sent, split by what the connection spoke: plain HTTP, or
/// WebSocket after its upgrade (the upgrade request and its 101 answer count as HTTP). Counted on the
/// wire, under TLS when there is TLS. Read by the application for its metrics.
public final class TrafficCounter: Sendable {
    private let httpReceived = Atomic<Int>(0)
    private let httpSent = Atomic<Int>(0)
    private let webSocketReceived = Atomic<Int>(0)
    private let webSocketSent = Atomic<Int>(0)

    public init() {}

    /// The totals so far.
    public var totals: TrafficTotals {
        TrafficTotals(
            httpReceived: httpReceived.load(ordering: .relaxed), httpSent: httpSent.load(ordering: .relaxed),
            webSocketReceived: webSocketReceived.load(ordering: .relaxed), webSocketSent: webSocketSent.load(ordering: .relaxed))
    }

    func received(_ bytes: Int, webSocket: Bool) {
        if webSocket {
            webSocketReceived.add(bytes, ordering: .relaxed)
        } else {
            httpReceived.add(bytes, ordering: .relaxed)
        }
    }

    func sent(_ bytes: Int, webSocket: Bool) {
        if webSocket {
            webSocketSent.add(bytes, ordering: .relaxed)
        } else {
            httpSent.add(bytes, ordering: .relaxed)
        }
    }
}

/// What a ``TrafficCounter`` has counted, in bytes.
public struct TrafficTotals: Sendable, Equatable {
    public var httpReceived: Int
    public var httpSent: Int
    public var webSocketReceived: Int
    public var webSocketSent: Int

    public init(httpReceived: Int = 0, httpSent: Int = 0, webSocketReceived: Int = 0, webSocketSent: Int = 0) {
        self.httpReceived = httpReceived
        self.httpSent = httpSent
        self.webSocketReceived = webSocketReceived
        self.webSocketSent = webSocketSent
    }
}

/// First in a connection's pipeline: counts what passes into a ``TrafficCounter``, as HTTP until the
/// connection is upgraded.
final class TrafficCountingHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let counter: TrafficCounter
    private var isWebSocket = false

    init(counter: TrafficCounter) {
        self.counter = counter
    }

    /// The connection speaks WebSocket from now on (called on its event loop once the 101 is written).
    func upgraded() {
        isWebSocket = true
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        counter.received(unwrapInboundIn(data).readableBytes, webSocket: isWebSocket)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        counter.sent(unwrapOutboundIn(data).readableBytes, webSocket: isWebSocket)
        context.write(data, promise: promise)
    }
}
