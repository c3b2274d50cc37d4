import CSystemTLS

/// SHA-1, used only where a protocol demands it (the WebSocket `Sec-WebSocket-Accept`, RFC 6455 §4.2.2).
public enum SHA1 {
    public static let byteCount = 20

    public static func hash<Bytes: Collection>(_ data: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var out = [UInt8](repeating: 0, count: byteCount)
        let ok = withContiguousBytes(data) { input in
            out.withUnsafeMutableBufferPointer { parlor_sha1(input.baseAddress, input.count, $0.baseAddress) }
        }
        // EVP_Digest with SHA-1 cannot fail for in-memory input unless the library is broken.
        precondition(ok == 1, "OpenSSL SHA-1 failed")
        return out
    }
}

/// SHA-256.
public enum SHA256 {
    public static let byteCount = 32

    public static func hash<Bytes: Collection>(_ data: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var out = [UInt8](repeating: 0, count: byteCount)
        let ok = withContiguousBytes(data) { input in
            out.withUnsafeMutableBufferPointer { parlor_sha256(input.baseAddress, input.count, $0.baseAddress) }
        }
        precondition(ok == 1, "OpenSSL SHA-256 failed")
        return out
    }
}

/// HMAC-SHA256: the signature on Parlor's session tokens.
public enum HMACSHA256 {
    public static let byteCount = 32

    public static func authenticationCode<Key: Collection, Message: Collection>(
        for message: Message, key: Key
    ) -> [UInt8] where Key.Element == UInt8, Message.Element == UInt8 {
        var out = [UInt8](repeating: 0, count: byteCount)
        let ok = withContiguousBytes(key) { keyBytes in
            withContiguousBytes(message) { messageBytes in
                out.withUnsafeMutableBufferPointer {
                    parlor_hmac_sha256(
                        keyBytes.baseAddress, keyBytes.count, messageBytes.baseAddress, messageBytes.count,
                        $0.baseAddress)
                }
            }
        }
        precondition(ok == 1, "OpenSSL HMAC-SHA256 failed")
        return out
    }

    /// Checks a code in constant time, so that a forger learns nothing from how long a rejection takes.
    public static func isValid<Key: Collection, Message: Collection, Code: Collection>(
        _ code: Code, for message: Message, key: Key
    ) -> Bool where Key.Element == UInt8, Message.Element == UInt8, Code.Element == UInt8 {
        let expected = authenticationCode(for: message, key: key)
        let given = Array(code)
        return constantTimeEquals(expected, given)
    }
}

/// Compares two byte strings without an early exit; unequal lengths compare unequal.
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    return a.withUnsafeBytes { pa in
        b.withUnsafeBytes { pb in parlor_constant_time_compare(pa.baseAddress, pb.baseAddress, pa.count) == 0 }
    }
}

@inline(__always)
func withContiguousBytes<Bytes: Collection, R>(
    _ data: Bytes, _ body: (UnsafeRawBufferPointer) -> R
) -> R where Bytes.Element == UInt8 {
    if let r = data.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
        return r
    }
    return Array(data).withUnsafeBytes(body)
}
