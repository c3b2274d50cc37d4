import FuzzSupport
import NIOCore
import ZlibReference
@testable import WebSocketCore

// Fuzzes permessage-deflate inflation: `ZlibInflater` with its decompressed-size limit (the zip-bomb
// guard), for every window size, fed the way frames feed it.
//
// Input: four choice bytes, then the bytes under test.
//   0  low 3 bits: window bits 8 + n (8...15); bit 3: round trip (else the bytes are a compressed message);
//      bit 4: no context takeover (round trip); high 3 bits: compression level 1 + n (round trip)
//   1  the decompressed size limit (index into `limits`)
//   2  how the message is split into frames: 0 in one, n > 0 in pieces of 1...n bytes
//   3  round trip: how the plain text is split into messages, as byte 2
//
// Checked on every input:
// - a compressed message: the output never passes the limit by more than the one byte that detects it;
//   inflation succeeds exactly when zlib alone inflates the message within the limit, and then gives
//   zlib's bytes; it fails as too big only when zlib's output passes the limit, and as corrupt only
//   when zlib finds the stream corrupt; a stream that refers further back than its window
//   (`reachesPastWindow`), which zlib catches or not depending on how input and output are split, may
//   fail as corrupt or inflate to what a wide enough window gives;
// - a round trip: messages compressed by `ZlibDeflater` (with or without context takeover) inflate to
//   exactly the plain text, or fail as too big exactly when a message is longer than the limit.

let limits = [0, 1, 100, 1024, 4096, 65_536, 1 << 20]
let allocator = ByteBufferAllocator()

/// zlib streams kept from one input to the next and reset before each, as the server's per-thread
/// caches keep them (`ZlibThreadCache`): a new stream per input would spend most of the run setting
/// up 256 KiB deflate states, and reuse after `reset()` is what production relies on.
enum Streams {
    nonisolated(unsafe) static var inflaters: [Int: ZlibInflater] = [:]
    nonisolated(unsafe) static var deflaters: [Int: ZlibDeflater] = [:]
    nonisolated(unsafe) static var references: [Int: ReferenceInflater] = [:]

    static func inflater(windowBits: Int) -> ZlibInflater {
        if let cached = inflaters[windowBits] {
            cached.reset()
            return cached
        }
        do {
            let inflater = try ZlibInflater(windowBits: windowBits)
            inflaters[windowBits] = inflater
            return inflater
        } catch {
            fatalError("no inflater for \(windowBits) window bits: \(error)")
        }
    }

    static func deflater(windowBits: Int, level: Int) -> ZlibDeflater {
        let key = windowBits * 16 + level
        if let cached = deflaters[key] {
            cached.reset()
            return cached
        }
        do {
            let deflater = try ZlibDeflater(windowBits: windowBits, level: Int32(level))
            deflaters[key] = deflater
            return deflater
        } catch {
            fatalError("no deflater for \(windowBits) window bits: \(error)")
        }
    }

    static func reference(windowBits: Int) -> ReferenceInflater {
        if let cached = references[windowBits] {
            cached.reset()
            return cached
        }
        let reference = ReferenceInflater(windowBits: Int32(windowBits))
        references[windowBits] = reference
        return reference
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInflate(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let flags = input.byte()
    let limit = limits[Int(input.byte()) % limits.count]
    let frameSeed = input.byte()
    let messageSeed = input.byte()
    let windowBits = 8 + Int(flags & 7)
    if flags & 8 == 0 {
        inflateMessage(Array(input.rest), windowBits: windowBits, limit: limit, frameSeed: frameSeed)
    } else {
        roundTrip(
            Array(input.rest), windowBits: max(9, windowBits), level: 1 + Int(flags >> 5), resetting: flags & 16 != 0,
            limit: limit, frameSeed: frameSeed, messageSeed: messageSeed)
    }
    return 0
}

/// Inflates `message` as the payload of one compressed message, compared with zlib alone.
func inflateMessage(_ message: [UInt8], windowBits: Int, limit: Int, frameSeed: UInt8) {
    let inflater = Streams.inflater(windowBits: windowBits)
    // The product never inflates with fewer than 9 bits (zlib's deflate cannot make 8); a 9-bit window
    // reads whatever an 8-bit one wrote, so the reference uses the same.
    let reference = Streams.reference(windowBits: max(9, windowBits))
    var expected: [UInt8] = []
    let cap = 4 * limit + 1024
    var outcome = reference.inflate(message, into: &expected, cap: cap)
    if case .inflated(ended: false) = outcome {
        outcome = reference.inflate(syncFlushTrailer, into: &expected, cap: cap)
    }

    var output = allocator.buffer(capacity: 0)
    var offset = 0
    let result = Result { () throws(InflateFailure) in
        for length in chunkLengths(total: message.count, seed: frameSeed) {
            defer { offset += length }
            try inflater.inflate(ByteBuffer(bytes: message[offset..<(offset + length)]), into: &output, limit: limit)
            require(output.readableBytes <= limit, "inflated \(output.readableBytes) bytes past the limit of \(limit)")
        }
        try inflater.finishMessage(into: &output, limit: limit)
    }
    require(output.readableBytes <= limit + 1, "inflated \(output.readableBytes) bytes for a limit of \(limit)")
    switch result {
    case .success where outcome == .corrupt && reachesPastWindow(message, windowBits: max(9, windowBits)):
        // zlib in the product had the history in its output buffer where the reference's was smaller;
        // what it copied is then what a window wide enough for the distances holds.
        let wide = ReferenceInflater(windowBits: 15)
        var widened: [UInt8] = []
        var wideOutcome = wide.inflate(message, into: &widened, cap: cap)
        if case .inflated(ended: false) = wideOutcome { wideOutcome = wide.inflate(syncFlushTrailer, into: &widened, cap: cap) }
        require(wideOutcome != .corrupt && sameBytes(output.readableBytesView, widened), "inflated other bytes than a wide window gives")
        require(output.readableBytes <= limit, "inflated past the limit")
    case .success:
        require(outcome != .corrupt && outcome != .overCap, "inflated a message zlib reads as \(outcome)")
        require(sameBytes(output.readableBytesView, expected), "inflated other bytes than zlib")
        require(output.readableBytes <= limit, "inflated past the limit")
    case .failure(.tooBig):
        require(expected.count > limit, "too big for \(limit), but zlib inflates \(expected.count) bytes (\(outcome))")
    case .failure(.corrupt(let why)):
        require(
            outcome == .corrupt || (why == tooFarBack && reachesPastWindow(message, windowBits: max(9, windowBits))),
            "corrupt (\(why)), but zlib reads \(outcome)")
    }
}

let tooFarBack = "invalid distance too far back"

/// Whether `message` refers further back than a window of `windowBits` holds, as zlib judges it when it
/// must keep history in its window: given one byte at a time. Given a whole message and room for all
/// its output, zlib copies from the output itself and lets a distance past the window through; given
/// frames, or with less room for output, it does so or not depending on where they split. A peer that
/// does this broke the window size it agreed to, so failing (1007) and inflating (to what a wide enough
/// window gives) are both right answers.
func reachesPastWindow(_ message: [UInt8], windowBits: Int) -> Bool {
    let strict = ReferenceInflater(windowBits: Int32(windowBits))
    var output: [UInt8] = []
    for byte in message + syncFlushTrailer where !strict.ended {
        if strict.inflate(CollectionOfOne(byte), into: &output, cap: Int.max) == .corrupt { return true }
    }
    return false
}

/// Compresses each message of `plain` with the product's deflater and inflates it again.
func roundTrip(
    _ plain: [UInt8], windowBits: Int, level: Int, resetting: Bool, limit: Int, frameSeed: UInt8, messageSeed: UInt8
) {
    let deflater = Streams.deflater(windowBits: windowBits, level: level)
    // The server's inflater always has the largest window; one as small as the sender's must do too.
    let inflater = Streams.inflater(windowBits: windowBits)
    var offset = 0
    for length in chunkLengths(total: plain.count, seed: messageSeed) {
        defer { offset += length }
        let message = ByteBuffer(bytes: plain[offset..<(offset + length)])
        let compressed = deflater.compress(message, allocator: allocator)
        var output = allocator.buffer(capacity: 0)
        let result = Result { () throws(InflateFailure) in
            var piece = 0
            for frameLength in chunkLengths(total: compressed.readableBytes, seed: frameSeed) {
                defer { piece += frameLength }
                // Safe: the chunk lengths add up to the readable bytes.
                try inflater.inflate(compressed.getSlice(at: compressed.readerIndex + piece, length: frameLength)!, into: &output, limit: limit)
            }
            try inflater.finishMessage(into: &output, limit: limit)
        }
        switch result {
        case .success:
            require(sameBytes(message.readableBytesView, output.readableBytesView), "a round trip of \(length) bytes came back as \(output.readableBytes) other bytes")
        case .failure(.tooBig):
            require(length > limit, "a message of \(length) bytes is not too big for \(limit)")
            return  // the connection would end here
        case .failure(.corrupt(let why)):
            fatalError("our own compressed message is corrupt: \(why)")
        }
        if resetting {
            deflater.reset()
            inflater.reset()
        }
    }
}
