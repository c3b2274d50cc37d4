import Foundation

/// How Parlor writes JSON: sorted keys (stable bytes for the same value), unescaped slashes.
public enum WireJSON {
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        Array(try encoder().encode(value))
    }

    /// Decodes `T` as `JSONDecoder` would, parsed once (`JSONParser`) and read without Foundation
    /// (`DocumentDecoder`). Stricter in two ways: text that is not RFC 8259 JSON anywhere (Foundation
    /// skips values it does not read), and a key repeated in one object, are refused.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: some Sequence<UInt8>) throws -> T {
        switch JSONDocument.parse(bytes) {
        case .success(let document):
            return try DocumentDecoder(document).unwrap(JSONDocument.root, as: type, .root, nil)
        case .failure(.invalid):
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "The given data was not valid JSON."))
        case .failure(.repeatedKey(let duplicate, _)):
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: [], debugDescription: "\(duplicate.fieldPath()) appears more than once."))
        }
    }

    /// Appends `text` as a JSON string literal (quotes included).
    static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Copy runs that need no escaping in one go; names and ids almost never need any.
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscape(byte, to: &out)
                runStart = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
        case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
        case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
        case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
        default:
            let hex = Array("0123456789abcdef".utf8)
            out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        }
    }

    static func append(_ literal: String, to out: inout [UInt8]) {
        out += literal.utf8
    }
}

/// A JSON value already encoded to bytes, to be spliced into frames without encoding it again
/// (a room's public view is encoded once per version and shared by every subscriber).
public struct EncodedJSON: Sendable, Equatable {
    public let bytes: [UInt8]

    public init(_ value: some Encodable) throws {
        bytes = try WireJSON.encode(value)
    }

    /// Bytes the caller guarantees are one valid JSON value.
    public init(trustedBytes: [UInt8]) {
        bytes = trustedBytes
    }

    public static let null = EncodedJSON(trustedBytes: Array("null".utf8))
}
