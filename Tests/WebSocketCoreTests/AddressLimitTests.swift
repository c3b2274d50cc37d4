import NIOCore
import Testing
@testable import WebSocketCore

/// One address cannot take every connection: past its cap its new connections are closed on accept,
/// while other addresses still connect and are served.
@Suite struct AddressLimitTests {
    @Test func rangesParseAndContainWhatTheySay() throws {
        let loopback = try AddressRange("127.0.0.0/8")
        #expect(loopback.contains(try SocketAddress(ipAddress: "127.0.0.1", port: 1)))
        #expect(loopback.contains(try SocketAddress(ipAddress: "127.255.0.9", port: 1)))
        #expect(!loopback.contains(try SocketAddress(ipAddress: "128.0.0.1", port: 1)))
        #expect(loopback.contains(try SocketAddress(ipAddress: "::ffff:127.0.0.5", port: 1)), "an IPv4 peer on a dual-stack socket")
        #expect(!loopback.contains(try SocketAddress(ipAddress: "::1", port: 1)))

        let one = try AddressRange("10.1.2.3")
        #expect(one.contains(try SocketAddress(ipAddress: "10.1.2.3", port: 1)))
        #expect(!one.contains(try SocketAddress(ipAddress: "10.1.2.4", port: 1)))

        let v6 = try AddressRange("fd00:1:2::/48")
        #expect(v6.contains(try SocketAddress(ipAddress: "fd00:1:2:ffff::1", port: 1)))
        #expect(!v6.contains(try SocketAddress(ipAddress: "fd00:1:3::1", port: 1)))
        #expect(try AddressRange("::1/128").contains(try SocketAddress(ipAddress: "::1", port: 1)))
        #expect(try AddressRange("0.0.0.0/0").contains(try SocketAddress(ipAddress: "8.8.8.8", port: 1)))
        #expect(try AddressRange("::/0").contains(try SocketAddress(ipAddress: "2001:db8::1", port: 1)))

        for bad in ["", "localhost", "127.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/x", "1.2.3.4.5"] {
            #expect(throws: AddressRangeError.self, "\(bad)") { try AddressRange(bad) }
        }
    }

    @Test func anIPv6ClientIsItsSlash64() throws {
        let a = ClientAddress(try SocketAddress(ipAddress: "2001:db8:1:2::1", port: 1))
        let b = ClientAddress(try SocketAddress(ipAddress: "2001:db8:1:2:ffff:ffff:ffff:ffff", port: 2))
        let c = ClientAddress(try SocketAddress(ipAddress: "2001:db8:1:3::1", port: 1))
        #expect(a == b && a != c)
        #expect(a?.description == "2001:db8:1:2:0:0:0:0/64")
        #expect(ClientAddress(try SocketAddress(ipAddress: "::ffff:10.0.0.1", port: 1)) == ClientAddress(try SocketAddress(ipAddress: "10.0.0.1", port: 9)))
        #expect(ClientAddress(try SocketAddress(ipAddress: "10.0.0.1", port: 9))?.description == "10.0.0.1")
    }

    @Test func theLimiterCountsPerAddressAndForgetsClosedOnes() throws {
        let limiter = AddressConnectionLimiter()
        let first = try SocketAddress(ipAddress: "192.0.2.1", port: 1000)
        let samePlace = try SocketAddress(ipAddress: "192.0.2.1", port: 1001)
        let slots = [limiter.admit(first, limit: 2, exemptions: []), limiter.admit(samePlace, limit: 2, exemptions: [])]
        #expect(slots.allSatisfy { $0 != nil })
        #expect(limiter.admit(first, limit: 2, exemptions: []) == nil)
        #expect(limiter.admit(try SocketAddress(ipAddress: "192.0.2.2", port: 1), limit: 2, exemptions: []) != nil)
        #expect(limiter.admit(first, limit: 2, exemptions: [try AddressRange("192.0.2.0/24")]) != nil, "exempt: not counted")
        #expect(limiter.admit(first, limit: nil, exemptions: []) != nil, "no limit")
        slots[0]?.release()
        #expect(limiter.connections(from: first) == 1)
        #expect(limiter.admit(first, limit: 2, exemptions: []) != nil)
        #expect(limiter.addressCount == 2)
    }

    @Test func oneAddressPastItsCapIsRefusedWhileAnotherConnects() async throws {
        try await withServer(configure: { $0.maxConnectionsPerAddress = 2 }) { port, server in
            let held = [try await RawConnection(port: port), try await RawConnection(port: port)]
            #expect(await held[1].waitUntil { server.connectionCount == 2 })
            let refused = try await RawConnection(port: port)
            #expect(await refused.waitUntil { refused.isClosed }, "a third connection from 127.0.0.1 is closed at once")
            #expect(server.rejectedConnectionCount == 1)

            // Another address is not held back, and is served.
            let other = try await RawConnection(port: port, from: "127.0.0.2")
            try await other.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(await other.waitUntil { other.receivedText.hasPrefix("HTTP/1.1 200") })

            // A closed connection frees its address's slot.
            await held[0].close()
            #expect(await held[1].waitUntil { server.connectionCount <= 1 })
            let again = try await RawConnection(port: port)
            try await again.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(await again.waitUntil { again.receivedText.hasPrefix("HTTP/1.1 200") })
            await held[1].close()
        }
    }

    @Test func anExemptRangeLiftsTheCap() async throws {
        let loopback = try AddressRange("127.0.0.0/8")
        try await withServer(configure: {
            $0.maxConnectionsPerAddress = 1
            $0.addressLimitExemptions = [loopback]
        }) { port, server in
            var held: [RawConnection] = []
            for _ in 0..<5 { held.append(try await RawConnection(port: port)) }
            #expect(await held[0].waitUntil { server.connectionCount == 5 })
            #expect(server.rejectedConnectionCount == 0)
            for connection in held { await connection.close() }
        }
    }
}
