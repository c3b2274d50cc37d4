import NIOCore

/// Makes the `EmbeddedChannel` treat writes as a socket channel does, which `EmbeddedChannel` does not:
/// a write is only queued until a flush, a close fails every write not yet flushed, and a write to a
/// closed channel fails. Without it, bytes a real peer never receives (a response lost to an early
/// close, an answer written while the connection is closing) would look sent, and the reverse.
final class ClosedSocketStandIn: ChannelOutboundHandler {
    typealias OutboundIn = NIOAny

    private var unflushed: [(NIOAny, EventLoopPromise<Void>?)] = []

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard context.channel.isActive else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        unflushed.append((data, promise))
    }

    func flush(context: ChannelHandlerContext) {
        let writes = unflushed
        unflushed = []
        for (data, promise) in writes {
            context.write(data, promise: promise)
        }
        context.flush()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        let writes = unflushed
        unflushed = []
        for (_, promise) in writes {
            promise?.fail(ChannelError.ioOnClosedChannel)
        }
        context.close(mode: mode, promise: promise)
    }
}
