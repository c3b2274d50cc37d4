import ArgumentParser
import Foundation
import NIOCore
import WebSocketCore

/// Micro-benchmarks of the WebSocket hot paths: masking, frame decode and encode, UTF-8 validation.
/// Prints one line per measurement; run with `-c release`.
struct CodecBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codec",
        abstract: "Measure masking, frame encode/decode and UTF-8 validation throughput (no network).")

    @Option(help: "Seconds to spend on each measurement.")
    var seconds: Double = 1.0

    func run() throws {
        print("measurement                               size      ops/s        MB/s")
        let key = WebSocketMaskingKey((0x37, 0xFA, 0x21, 0x3D))
        for size in [16, 128, 1024, 65_536, 1 << 20] {
            var buffer = ByteBuffer(repeating: 0x61, count: size)
            measure("mask (word at a time)", size: size) { key.apply(to: &buffer) }
            var bytes = [UInt8](repeating: 0x61, count: size)
            let keyBytes = key.bytes
            measure("mask (byte at a time, for comparison)", size: size) {
                bytes.withUnsafeMutableBufferPointer { p in
                    for i in 0..<p.count { p[i] ^= keyBytes[i & 3] }
                }
            }
        }
        let allocator = ByteBufferAllocator()
        for size in [16, 128, 1024, 65_536] {
            let frame = WebSocketFrameEncoder.encode(
                opcode: .text, payload: ByteBuffer(repeating: 0x61, count: size), maskingKey: key, allocator: allocator)
            let decoder = WebSocketFrameDecoder(role: .server, maxFrameSize: 1 << 20)
            measure("decode + unmask client frame", size: size) {
                var input = frame
                _ = try? decoder.decode(&input)
            }
            let payload = ByteBuffer(repeating: 0x61, count: size)
            measure("encode server frame", size: size) {
                _ = WebSocketFrameEncoder.encode(opcode: .text, payload: payload, allocator: allocator)
            }
        }
        for (label, text) in [("ascii", String(repeating: "parlor ", count: 1000)), ("multibyte", String(repeating: "κόσμε🎲", count: 300))] {
            let bytes = Array(text.utf8)
            measure("utf-8 validate (\(label))", size: bytes.count) {
                var validator = UTF8Validator()
                _ = bytes.withUnsafeBytes { validator.consume($0) }
            }
        }
    }

    private func measure(_ name: String, size: Int, _ body: () -> Void) {
        // Warm up, then run in batches until the time is spent.
        for _ in 0..<100 { body() }
        let clock = ContinuousClock()
        var operations = 0
        let start = clock.now
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        var batch = max(1, 100_000 / max(size, 1))
        while clock.now - start < budget {
            for _ in 0..<batch { body() }
            operations += batch
            batch = min(batch * 2, 1_000_000)
        }
        let elapsed = (clock.now - start) / .seconds(1)
        let perSecond = Double(operations) / elapsed
        let megabytes = perSecond * Double(size) / 1_000_000
        print(
            name.padding(toLength: 40, withPad: " ", startingAt: 0) + " "
                + String(size).leftPadded(8) + "  " + String(format: "%10.0f", perSecond) + "  " + String(format: "%10.1f", megabytes))
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
