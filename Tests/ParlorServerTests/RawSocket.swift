import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Sends bytes on a fresh TCP connection and returns everything received until the server closes it.
enum RawSocket {
    final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let received = NIOLockedValueBox([UInt8]())
        let done: EventLoopPromise<[UInt8]>

        init(done: EventLoopPromise<[UInt8]>) { self.done = done }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            received.withLockedValue { $0 += buffer.readableBytesView }
        }

        func channelInactive(context: ChannelHandlerContext) {
            done.succeed(received.withLockedValue { $0 })
        }
    }

    /// Connects to 127.0.0.1:`port` (from `localAddress`, another loopback address, when given).
    static func exchange(port: Int, bytes: [UInt8], from localAddress: String? = nil) async throws -> [UInt8] {
        let group = MultiThreadedEventLoopGroup.singleton
        let done = group.next().makePromise(of: [UInt8].self)
        let collector = Collector(done: done)
        var bootstrap = ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
        if let localAddress { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: localAddress, port: 0)) }
        let channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
        return try await done.futureResult.get()
    }
}
