import Foundation
import NIOCore
import ParlorWire

/// What the generator needs from a server frame, read without decoding the room: which reply or event
/// it is, the room `version` it carries and the error code.
///
/// At 2,000 rooms × 8 players the generator reads ~70,000 room frames a second on a machine it shares
/// with the server, so decoding each `GameRoom` would make the generator the bottleneck. The fast path
/// reads the envelope Parlor writes (`{"id":…,"result":…}`, `{"id":…,"error":{"code":"…"`,
/// `{"sub":…,"event":"…","data":…}`) and the room's `"version":N` — the key `"version":` cannot occur
/// inside a JSON string, and a room view has exactly one. Any other layout falls back to `JSONDecoder`.
enum ScannedFrame: Equatable {
    case reply(id: Int64, version: Int?, error: String?)
    /// `version` nil: no data (an `end` event) or `"data":null` (the room was deleted).
    case event(sub: Int, name: String, version: Int?)
    case unreadable

    init(_ buffer: ByteBuffer) {
        self = buffer.withUnsafeReadableBytes { bytes in Self.scan(bytes) } ?? Self.decode(buffer)
    }

    private static let idPrefix = Array(#"{"id":"#.utf8)
    private static let subPrefix = Array(#"{"sub":"#.utf8)
    private static let resultKey = Array(#","result":"#.utf8)
    private static let errorCodeKey = Array(#","error":{"code":""#.utf8)
    private static let eventKey = Array(#","event":""#.utf8)
    private static let versionKey = Array(#""version":"#.utf8)
    private static let nullData = Array(#","data":null}"#.utf8)

    private static func scan(_ bytes: UnsafeRawBufferPointer) -> ScannedFrame? {
        if bytes.starts(with: idPrefix) {
            var index = idPrefix.count
            guard let id = integer(in: bytes, at: &index) else { return nil }
            if matches(resultKey, in: bytes, at: index) {
                return .reply(id: id, version: lastVersion(in: bytes).map(Int.init), error: nil)
            }
            if matches(errorCodeKey, in: bytes, at: index) {
                index += errorCodeKey.count
                guard let code = string(in: bytes, at: index) else { return nil }
                return .reply(id: id, version: nil, error: code)
            }
            return nil
        }
        if bytes.starts(with: subPrefix) {
            var index = subPrefix.count
            guard let sub = integer(in: bytes, at: &index), matches(eventKey, in: bytes, at: index) else { return nil }
            index += eventKey.count
            guard let name = string(in: bytes, at: index) else { return nil }
            let deleted = bytes.count >= nullData.count && matches(nullData, in: bytes, at: bytes.count - nullData.count)
            return .event(sub: Int(sub), name: name, version: deleted ? nil : lastVersion(in: bytes).map(Int.init))
        }
        return nil
    }

    private static func matches(_ pattern: [UInt8], in bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
        guard index >= 0, index + pattern.count <= bytes.count else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] { return false }
        return true
    }

    /// A decimal integer at `index` (optionally negative); moves `index` past it.
    private static func integer(in bytes: UnsafeRawBufferPointer, at index: inout Int) -> Int64? {
        var negative = false
        if index < bytes.count && bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var value: Int64 = 0
        var digits = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 18 {
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        return digits == 0 ? nil : (negative ? -value : value)
    }

    /// The characters up to the next quote (codes and event names never need escapes).
    private static func string(in bytes: UnsafeRawBufferPointer, at start: Int) -> String? {
        var end = start
        while end < bytes.count && bytes[end] != UInt8(ascii: "\"") {
            if bytes[end] == UInt8(ascii: "\\") || end - start > 64 { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// The integer after the last `"version":`, searching from the end (a room ends with it).
    private static func lastVersion(in bytes: UnsafeRawBufferPointer) -> Int64? {
        var index = bytes.count - versionKey.count
        while index >= 0 {
            if bytes[index] == UInt8(ascii: "\""), matches(versionKey, in: bytes, at: index) {
                var position = index + versionKey.count
                return integer(in: bytes, at: &position)
            }
            index -= 1
        }
        return nil
    }

    // MARK: The slow path

    private struct Probe: Decodable {
        struct Versioned: Decodable {
            let version: Int?
            let room: Room?
            struct Room: Decodable { let version: Int? }
        }

        let id: RequestID?
        let sub: Int?
        let event: String?
        let error: WireError?
        let result: Versioned?
        let data: Versioned?
    }

    private static func decode(_ buffer: ByteBuffer) -> ScannedFrame {
        guard let probe = try? JSONDecoder().decode(Probe.self, from: Data(buffer.readableBytesView)) else {
            return .unreadable
        }
        if let sub = probe.sub, let event = probe.event {
            return .event(sub: sub, name: event, version: probe.data.flatMap { $0.version ?? $0.room?.version })
        }
        switch probe.id {
        case .number(let id)?:
            return .reply(
                id: id, version: probe.result.flatMap { $0.version ?? $0.room?.version }, error: probe.error?.code.rawValue)
        case .null?, .string?:
            // A request the server could not read is answered with a null id: still an error to count.
            return probe.error.map { .reply(id: -1, version: nil, error: $0.code.rawValue) } ?? .unreadable
        case nil:
            return .unreadable
        }
    }
}
