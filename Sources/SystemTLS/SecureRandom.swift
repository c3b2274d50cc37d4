import CSystemTLS

/// Bytes from OpenSSL's CSPRNG (`RAND_bytes`): WebSocket masking keys, handshake keys, secrets, room codes.
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0)
        var out = [UInt8](repeating: 0, count: count)
        fill(&out)
        return out
    }

    /// Fills `buffer` with random bytes.
    public static func fill(_ buffer: inout [UInt8]) {
        guard !buffer.isEmpty else { return }
        let ok = buffer.withUnsafeMutableBufferPointer { parlor_random_bytes($0.baseAddress, $0.count) }
        // RAND_bytes fails only when the CSPRNG cannot be seeded; continuing would hand out predictable keys.
        precondition(ok == 1, "OpenSSL RAND_bytes failed: the system CSPRNG is unavailable")
    }

    /// A frame's masking key: four bytes from the calling thread's store of CSPRNG output, refilled a
    /// kilobyte at a time, so a client that sends thousands of frames a second asks OpenSSL once per 256
    /// of them rather than once each (RFC 6455 §10.3 asks for keys a third party cannot predict, which
    /// CSPRNG output stays however it is fetched).
    public static func maskingKey() -> UInt32 {
        var value: UInt32 = 0
        let ok = parlor_random_u32_pooled(&value)
        precondition(ok == 1, "OpenSSL RAND_bytes failed: the system CSPRNG is unavailable")
        return value
    }

    /// A uniformly distributed integer in `0..<upperBound`, without modulo bias.
    public static func uniform(below upperBound: Int) -> Int {
        precondition(upperBound > 0)
        let bound = UInt64(upperBound)
        let limit = UInt64.max - (UInt64.max % bound)
        while true {
            var value: UInt64 = 0
            let ok = withUnsafeMutableBytes(of: &value) {
                parlor_random_bytes($0.baseAddress?.assumingMemoryBound(to: UInt8.self), 8)
            }
            precondition(ok == 1, "OpenSSL RAND_bytes failed: the system CSPRNG is unavailable")
            if value < limit { return Int(value % bound) }
        }
    }
}
