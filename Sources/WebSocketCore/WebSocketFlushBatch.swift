import NIOConcurrencyHelpers
import NIOCore

/// The connections of one event loop written to since its last turn, flushed together once the work
/// already queued on the loop has run.
///
/// A connection often gets several frames in quick succession from different sources — a reply and
/// the event its own request caused, a public and a private frame, versions of two games — each handed
/// to the loop as its own job. Flushing after each would cost a system call per frame; a flush deferred
/// to the end of the queued work sends them all in one `writev`. The delay is the rest of the loop's
/// queue, never a timer.
final class WebSocketFlushBatch: @unchecked Sendable {
    // @unchecked: `pending` is touched only on `loop`.
    private let loop: any EventLoop
    private var pending: [WebSocketChannelHandler] = []
    private var spare: [WebSocketChannelHandler] = []

    private static let batches = NIOLockedValueBox<[ObjectIdentifier: WebSocketFlushBatch]>([:])

    private init(loop: any EventLoop) {
        self.loop = loop
    }

    /// The batch of `loop`, made once per loop.
    static func of(_ loop: any EventLoop) -> WebSocketFlushBatch {
        batches.withLockedValue { batches in
            let key = ObjectIdentifier(loop)
            if let batch = batches[key] { return batch }
            let batch = WebSocketFlushBatch(loop: loop)
            batches[key] = batch
            return batch
        }
    }

    /// On the loop: `handler` has unflushed writes. The first handler of a turn schedules the flush.
    func add(_ handler: WebSocketChannelHandler) {
        pending.append(handler)
        if pending.count == 1 {
            loop.execute { self.flushAll() }
        }
    }

    private func flushAll() {
        // Swap buffers so that writes made while flushing (a flush can fire writability changes) start
        // the next batch instead of growing this one.
        swap(&pending, &spare)
        for handler in spare { handler.flushNow() }
        spare.removeAll(keepingCapacity: spare.capacity <= 4096)
    }
}
