import Foundation
import NIOCore
import ParlorRules
import ParlorTestSupport
import Testing
import WebSocketCore
@testable import ParlorServer

/// Requests per second hold per user and per address, across every connection and HTTP request
/// together, and count the frames that cannot be read too.
@Suite struct RateLimitTests {
    static let notFound: [String: String] = ["code": "ABCDEF"]
    /// A token every 100 seconds: a test that spends a burst and counts refusals sees no token come
    /// back while it runs, however slow the machine (at 1 a second, a slow CI run refilled the bucket
    /// between requests and the refusals did not come).
    static let noRefill = 0.01

    @Test func oneUserHasOneBucketAcrossConnectionsAndHTTP() async throws {
        try await withParlor(configure: {
            $0.limits.requestBurst = 6
            $0.limits.requestsPerSecond = Self.noRefill
        }) { parlor in
            let token = try await QuotaTests.signIn(parlor)
            let bearer = [("Authorization", "Bearer \(token)")]
            try await parlor.connect(signIn: false, headers: bearer) { first in
                try await parlor.connect(signIn: false, headers: bearer) { second in
                    for _ in 0..<3 {
                        #expect(try await first.call("getRoom", Self.notFound).errorCode == "ROOM_NOT_FOUND")
                        #expect(try await second.call("getRoom", Self.notFound).errorCode == "ROOM_NOT_FOUND")
                    }
                    // The burst is spent, whichever connection or protocol asks next.
                    var refusedOverHTTP = 0
                    for _ in 0..<5 {
                        let response = try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/rooms/ABCDEF", token: token)
                        guard response.status == 429 else { continue }
                        refusedOverHTTP += 1
                        #expect(Int(response.headers["retry-after"] ?? "") ?? 0 >= 1)
                        let error = try #require((response.body as? [String: Any])?["error"] as? [String: Any])
                        #expect(error["code"] as? String == "RATE_LIMITED")
                    }
                    #expect(refusedOverHTTP >= 3)
                    #expect(try await first.call("getRoom", Self.notFound).errorCode == "RATE_LIMITED")
                    // Another user on the same address is not held back.
                    let other = try await parlor.connect { other in try await other.call("getRoom", Self.notFound).errorCode }
                    #expect(other == "ROOM_NOT_FOUND")
                }
            }
        }
    }

    @Test func oneAddressHasOneBucketAcrossItsUsers() async throws {
        try await withParlor(configure: {
            $0.limits.addressRequestBurst = 8
            $0.limits.addressRequestsPerSecond = Self.noRefill
        }) { parlor in
            var codes: [String] = []
            for _ in 0..<4 {
                // A fresh anonymous user each time: hello, then one request.
                try await parlor.connect { user in
                    codes.append(try await user.call("getRoom", Self.notFound).errorCode ?? "ok")
                }
            }
            #expect(codes == Array(repeating: "ROOM_NOT_FOUND", count: 4))
            var refused = 0
            for _ in 0..<6 {
                let response = try await RawHTTP.exchange(port: parlor.port, method: "POST", path: "/session")
                if response.status == 429 { refused += 1 }
            }
            #expect(refused >= 4)
            // Another address is served.
            let elsewhere = try await parlor.connect(from: "127.0.0.2") { try await $0.call("getRoom", Self.notFound).errorCode }
            #expect(elsewhere == "ROOM_NOT_FOUND")
            let other = try await RawHTTP.exchange(port: parlor.port, method: "POST", path: "/session", from: "127.0.0.3")
            #expect(other.status == 200)
            // Operators' routes are never rate-limited.
            #expect(try await RawHTTP.exchange(port: parlor.port, method: "GET", path: "/healthz").status == 200)
        }
    }

    @Test func malformedFramesCountAgainstTheLimit() async throws {
        try await withParlor(configure: {
            $0.limits.addressRequestBurst = 5
            $0.limits.addressRequestsPerSecond = Self.noRefill
        }) { parlor in
            try await parlor.connect(signIn: false) { client in
                var codes: [String] = []
                for index in 0..<20 {
                    try await client.webSocket.send(text: index % 2 == 0 ? "{not json" : #"{"id":1,"op":"nope"}"#)
                    codes.append(try await client.nextFrame().errorCode ?? "ok")
                }
                #expect(codes.prefix(5).allSatisfy { $0 == "BAD_REQUEST" })
                #expect(codes.filter { $0 == "RATE_LIMITED" }.count >= 12)
                // The malformed frames spent the bucket: a good request is refused too.
                #expect(try await client.call("getRoom", Self.notFound).errorCode == "RATE_LIMITED")
                let binary = try await {
                    try await client.webSocket.send(binary: ByteBuffer(string: "{}"))
                    return try await client.nextFrame().errorCode
                }()
                #expect(binary == "RATE_LIMITED")
            }
        }
    }

    @Test func exemptAddressesSkipOnlyTheAddressBucket() throws {
        let user = try #require(UserID("00000000-0000-4000-8000-000000000001"))
        let loopback = try SocketAddress(ipAddress: "127.0.0.1", port: 1)
        let limiter = RequestLimiter(
            user: .init(burst: 2, perSecond: 1), address: .init(burst: 3, perSecond: 1),
            exemptions: [try AddressRange("127.0.0.0/8")])
        let now = NIODeadline.now()
        for _ in 0..<100 { #expect(limiter.admit(user: nil, address: loopback, now: now) == .allowed) }
        #expect(limiter.admit(user: user, address: loopback, now: now) == .allowed)
        #expect(limiter.admit(user: user, address: loopback, now: now) == .allowed)
        #expect(limiter.admit(user: user, address: loopback, now: now) == .limited(retryAfterSeconds: 1))
        let elsewhere = try SocketAddress(ipAddress: "192.0.2.1", port: 1)
        for _ in 0..<3 { #expect(limiter.admit(user: nil, address: elsewhere, now: now) == .allowed) }
        #expect(limiter.admit(user: nil, address: elsewhere, now: now).isLimited)
        #expect(limiter.admit(user: nil, address: elsewhere, now: now + .seconds(1)) == .allowed)
    }

    @Test func idleBucketsAreForgotten() throws {
        let limiter = RequestLimiter(user: .init(burst: 4, perSecond: 2), address: .init(burst: 4, perSecond: 2), exemptions: [])
        let start = NIODeadline.now()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 { _ = limiter.admit(user: UserID.random(using: &generator), address: nil, now: start) }
        #expect(limiter.bucketCount == 5_000)
        // Two seconds on, every one of them has refilled: the next requests sweep them away.
        let later = start + .seconds(3)
        for _ in 0..<2_000 { _ = limiter.admit(user: UserID.random(using: &generator), address: nil, now: later) }
        #expect(limiter.bucketCount < 3_000)
        #expect(limiter.bucketCount >= 2_000 - 16 * 64, "the buckets in use stay")
    }
}
