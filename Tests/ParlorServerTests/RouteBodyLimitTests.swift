import Foundation
import NIOHTTP1
import ParlorRules
import ParlorWire
import Testing
@testable import ParlorServer

/// Each REST route declares the largest body it reads; the listener refuses more with 413 before
/// reading it, so one upload route taking megabytes leaves every JSON route at 64 KiB.
@Suite struct RouteBodyLimitTests {
    /// The counter game plus one route that takes up to 200 KiB and answers how much it got.
    struct LargeBodyModule: GameModule {
        static let limit = 200 * 1024

        func register(in kernel: Kernel) throws -> GameRegistration {
            let base = try CounterModule().register(in: kernel)
            let measure = HTTPRoute(.POST, "/test/measure", maxBodySize: Self.limit) { request throws(WireError) in
                let bytes = request.request.body.readableBytes
                return { _ throws(WireError) in .reply(try EncodedJSON.encoding(["bytes": bytes])) }
            }
            return GameRegistration(game: base.game, operations: base.operations, routes: base.routes + [measure])
        }
    }

    @Test func aRouteTakesUpToItsOwnLimitAndNoMore() async throws {
        try await withParlor(games: [LargeBodyModule()]) { parlor in
            let token = try #require((try await parlor.http("POST", "/session").1 as? [String: Any])?["token"] as? String)
            let large = Data(repeating: UInt8(ascii: "x"), count: 150 * 1024)
            let taken = try await RawHTTP.exchange(port: parlor.port, method: "POST", path: "/test/measure", body: large, token: token)
            #expect(taken.status == 200)
            #expect((taken.body as? [String: Any])?["bytes"] as? Int == large.count)

            // Refused on the head alone: the body need not be sent.
            let refused = try await RawHTTP.exchange(
                port: parlor.port, method: "POST", path: "/test/measure", token: token, declaredLength: LargeBodyModule.limit + 1)
            #expect(refused.status == 413)
            #expect(refused.text.contains("Request body over \(LargeBodyModule.limit) bytes"))
        }
    }

    @Test func everyOtherRouteKeeps64KiB() async throws {
        try await withParlor(games: [LargeBodyModule()]) { parlor in
            #expect(parlor.services.configuration.listener.maxRequestBodySize == HTTPRoute.defaultMaxBodySize)
            let session = try await RawHTTP.exchange(
                port: parlor.port, method: "POST", path: "/session", declaredLength: HTTPRoute.defaultMaxBodySize + 1)
            #expect(session.status == 413)
            #expect(session.text.contains("Request body over \(HTTPRoute.defaultMaxBodySize) bytes"))
        }
    }
}
