import NIOCore

/// Bounds the bytes a client may send before its request head is complete. NIOHTTP1's parser has only a
/// fixed 80 KiB limit; this makes it configurable. Sits in front of the HTTP decoder and counts raw bytes
/// while the connection waits for a head; the connection handler says when one has arrived.
final class HTTPHeadSizeLimiter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limit: Int
    private var counted = 0
    private var waitingForHead = true
    private var tripped = false

    init(limit: Int) {
        self.limit = limit
    }

    /// A head arrived: what follows is body, limited elsewhere.
    func headReceived() {
        waitingForHead = false
        counted = 0
    }

    /// The response was sent: the next bytes belong to the next request's head.
    func awaitNextHead() {
        waitingForHead = true
        counted = 0
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !tripped else { return }
        if waitingForHead {
            counted += unwrapInboundIn(data).readableBytes
            if counted > limit {
                tripped = true
                let body = "Request header fields too large (limit \(limit) bytes)\n"
                let response =
                    "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
                context.writeAndFlush(wrapInboundOut(ByteBuffer(string: response))).assumeIsolated().whenComplete { _ in
                    context.close(promise: nil)
                }
                return
            }
        }
        context.fireChannelRead(data)
    }
}
