import NIOCore
import NIOPosix

/// Per-thread caches of zlib streams. A deflate stream costs ~256 KiB and an inflate stream ~40 KiB; with
/// no context takeover nothing needs to outlive a message, so a few streams per event loop thread serve
/// every connection on it instead of one pair per connection.
final class ZlibThreadCache {
    // Each thread sees only its own value, so the shared handle carries no shared mutable state.
    nonisolated(unsafe) private static let current = ThreadSpecificVariable<ZlibThreadCache>()

    static var forThisThread: ZlibThreadCache {
        if let cache = current.currentValue { return cache }
        let cache = ZlibThreadCache()
        current.currentValue = cache
        return cache
    }

    /// Idle inflaters, all reset. Bounded so a burst of concurrent messages doesn't pin memory forever.
    fileprivate var idleInflaters: [ZlibInflater] = []
    fileprivate static let maxIdleInflaters = 16
    /// Deflaters used with no context takeover, keyed by window bits and level; always left reset.
    private var deflaters: [Int: ZlibDeflater] = [:]

    /// Compresses one message with no context takeover using this thread's shared deflater.
    func compressWithoutContext(
        _ payload: ByteBuffer, windowBits: Int, level: Int, allocator: ByteBufferAllocator, reserveHeader: Int = 0
    ) throws(WebSocketCompressionError) -> ByteBuffer {
        let key = windowBits * 16 + level
        let deflater: ZlibDeflater
        if let cached = deflaters[key] {
            deflater = cached
        } else {
            deflater = try ZlibDeflater(windowBits: windowBits, level: Int32(level))
            deflaters[key] = deflater
        }
        let out = deflater.compress(payload, allocator: allocator, reserveHeader: reserveHeader)
        deflater.reset()
        return out
    }
}

/// An inflater borrowed from this thread's cache for as long as a connection needs its window; handed
/// back, reset, when the lease ends.
final class InflaterLease {
    let inflater: ZlibInflater

    init() throws(WebSocketCompressionError) {
        let cache = ZlibThreadCache.forThisThread
        if let idle = cache.idleInflaters.popLast() {
            inflater = idle
        } else {
            // A 15-bit window inflates what any peer window (8...15) produced.
            inflater = try ZlibInflater(windowBits: 15)
        }
    }

    deinit {
        let cache = ZlibThreadCache.forThisThread
        guard cache.idleInflaters.count < ZlibThreadCache.maxIdleInflaters else { return }
        inflater.reset()
        cache.idleInflaters.append(inflater)
    }
}
