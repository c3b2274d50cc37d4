import NIOCore

/// A range of IP addresses in CIDR notation (`127.0.0.0/8`, `10.1.2.3`, `::1/128`, `fd00::/8`), for
/// lists such as the addresses per-address limits do not apply to.
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    private let network: AddressBytes
    private let prefixLength: Int
    public let description: String

    /// Parses `address[/prefix]`; a bare address is a range of one. Throws a sentence naming the
    /// problem.
    public init(_ text: String) throws(AddressRangeError) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let addressText = String(parts[0])
        guard let parsed = try? SocketAddress(ipAddress: addressText, port: 0), let bytes = AddressBytes(parsed) else {
            throw AddressRangeError("\(text) is not an IP address or a CIDR range (such as 127.0.0.0/8 or fd00::/8).")
        }
        // A mapped IPv4 address written as IPv6 is a range of IPv4 addresses: keep the prefix meaningful.
        let isV4Text = !addressText.contains(":")
        let bits: Int
        switch bytes {
        case .v4: bits = 32
        case .v6: bits = 128
        }
        let length: Int
        if parts.count == 2 {
            guard let prefix = Int(parts[1]), (0...(isV4Text ? 32 : 128)).contains(prefix) else {
                throw AddressRangeError("\(text): the prefix length must be 0 to \(isV4Text ? 32 : 128).")
            }
            length = isV4Text || bits == 128 ? prefix : max(0, prefix - 96)
        } else {
            length = bits
        }
        network = Self.masked(bytes, to: length)
        prefixLength = length
        description = text
    }

    /// Whether `address` is in the range (an IPv4 peer seen as `::ffff:a.b.c.d` counts as IPv4).
    public func contains(_ address: SocketAddress?) -> Bool {
        guard let bytes = AddressBytes(address) else { return false }
        return Self.masked(bytes, to: prefixLength) == network && Self.sameFamily(bytes, network)
    }

    private static func sameFamily(_ a: AddressBytes, _ b: AddressBytes) -> Bool {
        switch (a, b) {
        case (.v4, .v4), (.v6, .v6): true
        default: false
        }
    }

    private static func masked(_ bytes: AddressBytes, to length: Int) -> AddressBytes {
        switch bytes {
        case .v4(let bits):
            return .v4(length == 0 ? 0 : bits & (UInt32.max << (32 - length)))
        case .v6(let high, let low):
            let highMask: UInt64 = length >= 64 ? .max : (length == 0 ? 0 : .max << (64 - length))
            let lowMask: UInt64 = length <= 64 ? 0 : (length == 128 ? .max : .max << (128 - length))
            return .v6(high: high & highMask, low: low & lowMask)
        }
    }
}

/// Why a range could not be read.
public struct AddressRangeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}

extension Sequence<AddressRange> {
    /// Whether any range holds `address`.
    public func containsAddress(_ address: SocketAddress?) -> Bool {
        contains { $0.contains(address) }
    }
}
