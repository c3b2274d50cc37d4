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

/// SHA-256 of bytes that arrive in pieces (a backup archive as it is written or read), without holding
/// them all: OpenSSL's digest context, fed chunk by chunk. One owner at a time; `finish()` once.
public final class SHA256Stream {
    private let context: OpaquePointer
    private var finished = false

    public init() {
        // Allocation failure is the only way either call fails: the process is out of memory.
        guard let context = EVP_MD_CTX_new() else { fatalError("OpenSSL could not allocate a digest context") }
        precondition(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "OpenSSL SHA-256 failed to start")
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(!finished, "SHA256Stream used after finish()")
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(EVP_DigestUpdate(context, base, bytes.count) == 1, "OpenSSL SHA-256 failed")
    }

    public func update<Bytes: Collection>(_ data: Bytes) where Bytes.Element == UInt8 {
        withContiguousBytes(data) { update($0) }
    }

    /// The digest of everything given so far (32 bytes).
    public func finish() -> [UInt8] {
        precondition(!finished, "SHA256Stream finished twice")
        finished = true
        var out = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length: UInt32 = 0
        let ok = out.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
        precondition(ok == 1 && length == UInt32(SHA256.byteCount), "OpenSSL SHA-256 failed")
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
