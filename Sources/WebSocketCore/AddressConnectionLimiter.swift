import NIOConcurrencyHelpers
import NIOCore

/// Counts each client address's open connections (`ClientAddress`: an IPv4 address or an IPv6 /64)
/// and refuses one more past the limit, so that one address cannot take every connection slot.
///
/// A refused connection is closed before it is counted anywhere, so it takes no slot from anyone
/// else. Addresses in an exempt range (a load generator on loopback, a trusted proxy) are not counted.
/// Entries go when their address's last connection closes, so the table holds only addresses that
/// are connected now.
final class AddressConnectionLimiter: Sendable {
    private let open = NIOLockedValueBox<[ClientAddress: Int]>([:])

    /// A counted connection; release it when the connection closes.
    struct Slot: Sendable {
        fileprivate let limiter: AddressConnectionLimiter?
        fileprivate let address: ClientAddress?

        func release() {
            guard let limiter, let address else { return }
            limiter.open.withLockedValue { open in
                guard let count = open[address] else { return }
                open[address] = count > 1 ? count - 1 : nil
            }
        }
    }

    /// A slot for a new connection from `address`, or nil when that address already holds `limit`.
    /// With no limit, or for an exempt or unaddressed peer, the slot counts nothing.
    func admit(_ address: SocketAddress?, limit: Int?, exemptions: [AddressRange]) -> Slot? {
        guard let limit, let client = ClientAddress(address), !exemptions.containsAddress(address) else {
            return Slot(limiter: nil, address: nil)
        }
        let admitted = open.withLockedValue { open -> Bool in
            let count = open[client, default: 0]
            guard count < limit else { return false }
            open[client] = count + 1
            return true
        }
        return admitted ? Slot(limiter: self, address: client) : nil
    }

    /// Connections `address` holds now.
    func connections(from address: SocketAddress?) -> Int {
        guard let client = ClientAddress(address) else { return 0 }
        return open.withLockedValue { $0[client] ?? 0 }
    }

    /// Addresses holding at least one counted connection.
    var addressCount: Int { open.withLockedValue { $0.count } }
}
