import NIOCore

/// Who a connection comes from, as far as per-client limits are concerned: an IPv4 address, or the
/// /64 network of an IPv6 address.
///
/// A /64 is what one subscriber is given and a host picks addresses in it freely (privacy addresses),
/// so counting single IPv6 addresses would let one machine look like billions of clients. An
/// IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, as a dual-stack listener reports IPv4 peers) is its
/// IPv4 address. Unix-domain peers have no address and are not limited.
public struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    private enum Storage: Hashable {
        case v4(UInt32)
        case v6(prefix: UInt64)
    }

    private let storage: Storage

    /// Nil for peers without an IP address (Unix-domain sockets).
    public init?(_ address: SocketAddress?) {
        switch AddressBytes(address) {
        case .v4(let bits): storage = .v4(bits)
        case .v6(let high, _): storage = .v6(prefix: high)
        case nil: return nil
        }
    }

    public var description: String {
        switch storage {
        case .v4(let bits): AddressBytes.v4(bits).text
        case .v6(let prefix): AddressBytes.v6(high: prefix, low: 0).text + "/64"
        }
    }
}

/// An IP address as numbers, in host order: what ranges and client addresses are computed from.
enum AddressBytes: Hashable, Sendable {
    case v4(UInt32)
    case v6(high: UInt64, low: UInt64)

    init?(_ address: SocketAddress?) {
        switch address {
        case .v4(let v4):
            self = .v4(UInt32(bigEndian: v4.address.sin_addr.s_addr))
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            guard bytes.count == 16 else { return nil }
            let high = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let low = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            // ::ffff:a.b.c.d is an IPv4 peer on a dual-stack socket.
            if high == 0 && low >> 32 == 0xFFFF {
                self = .v4(UInt32(truncatingIfNeeded: low))
            } else {
                self = .v6(high: high, low: low)
            }
        case .unixDomainSocket, nil:
            return nil
        }
    }

    /// For logs and messages; IPv6 without zero compression.
    var text: String {
        switch self {
        case .v4(let bits):
            return [24, 16, 8, 0].map { String((bits >> $0) & 0xFF) }.joined(separator: ".")
        case .v6(let high, let low):
            let groups = [48, 32, 16, 0].map { UInt16(truncatingIfNeeded: high >> $0) } + [48, 32, 16, 0].map { UInt16(truncatingIfNeeded: low >> $0) }
            return groups.map { String($0, radix: 16) }.joined(separator: ":")
        }
    }
}
