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

    static func exchange(port: Int, bytes: [UInt8]) async throws -> [UInt8] {
        let group = MultiThreadedEventLoopGroup.singleton
        let done = group.next().makePromise(of: [UInt8].self)
        let collector = Collector(done: done)
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes)).get()
        return try await done.futureResult.get()
    }
}
