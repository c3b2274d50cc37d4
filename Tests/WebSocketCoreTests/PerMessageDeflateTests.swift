import NIOCore
import Testing
@testable import WebSocketCore

@Suite struct DeflateNegotiationTests {
    private func negotiate(_ offer: String, _ configuration: PerMessageDeflateConfiguration = .init()) -> (String, NegotiatedDeflate)? {
        PerMessageDeflateNegotiation.negotiateAsServer(offers: [offer], configuration: configuration).map { ($0.response, $0.negotiated) }
    }

    @Test func plainOfferGetsServerNoContextTakeoverByDefault() throws {
        let (response, negotiated) = try #require(negotiate("permessage-deflate"))
        #expect(response == "permessage-deflate; server_no_context_takeover")
        #expect(negotiated.ourNoContextTakeover && !negotiated.peerNoContextTakeover)
        #expect(negotiated.ourWindowBits == 15 && negotiated.peerWindowBits == 15)
    }

    @Test func contextTakeoverKeptWhenConfigured() throws {
        var configuration = PerMessageDeflateConfiguration()
        configuration.noContextTakeoverForOurMessages = false
        let (response, negotiated) = try #require(negotiate("permessage-deflate", configuration))
        #expect(response == "permessage-deflate")
        #expect(!negotiated.ourNoContextTakeover)
    }

    @Test func honoursEveryParameter() throws {
        let (response, negotiated) = try #require(
            negotiate("permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=12"))
        #expect(response == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=12")
        #expect(negotiated.ourWindowBits == 10 && negotiated.peerWindowBits == 12 && negotiated.peerNoContextTakeover)
    }

    @Test func clientMaxWindowBitsWithoutValueIsNotEchoed() throws {
        let (response, negotiated) = try #require(negotiate("permessage-deflate; client_max_window_bits"))
        #expect(response == "permessage-deflate; server_no_context_takeover")
        #expect(negotiated.peerWindowBits == 15)
    }

    @Test func quotedValuesAreAccepted() throws {
        let (response, _) = try #require(negotiate("permessage-deflate; server_max_window_bits=\"11\""))
        #expect(response.hasSuffix("server_max_window_bits=11"))
    }

    @Test(arguments: [
        "permessage-deflate; server_max_window_bits",  // value required
        "permessage-deflate; server_max_window_bits=16",
        "permessage-deflate; server_max_window_bits=08",
        "permessage-deflate; server_max_window_bits=+9",  // a sign is not a digit
        "permessage-deflate; client_max_window_bits=+12",
        "permessage-deflate; server_max_window_bits=8",  // zlib cannot deflate with 8 bits
        "permessage-deflate; client_max_window_bits=7",
        "permessage-deflate; server_no_context_takeover=1",
        "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
        "permessage-deflate; unknown_parameter",
        "x-webkit-deflate-frame",
    ])
    func declinesOffersWeCannotAccept(offer: String) {
        #expect(negotiate(offer) == nil)
    }

    /// A declined first offer falls through to the next acceptable one.
    @Test func picksTheFirstAcceptableOffer() throws {
        let (response, negotiated) = try #require(
            negotiate("permessage-deflate; server_max_window_bits=8, permessage-deflate; server_max_window_bits=9"))
        #expect(response == "permessage-deflate; server_no_context_takeover; server_max_window_bits=9")
        #expect(negotiated.ourWindowBits == 9)
    }

    @Test func clientOfferAndResponseValidation() throws {
        #expect(PerMessageDeflateNegotiation.clientOffer(.init()) == "permessage-deflate; client_max_window_bits; client_no_context_takeover")
        let agreed = try #require(try PerMessageDeflateNegotiation.acceptAsClient(
            response: ["permessage-deflate; server_no_context_takeover; client_max_window_bits=10"], configuration: .init()))
        #expect(agreed.peerNoContextTakeover && agreed.ourWindowBits == 10 && agreed.ourNoContextTakeover)
        #expect(throws: WebSocketHandshakeError.self) {
            try PerMessageDeflateNegotiation.acceptAsClient(response: ["permessage-deflate; client_max_window_bits=8"], configuration: .init())
        }
        #expect(throws: WebSocketHandshakeError.self) {
            try PerMessageDeflateNegotiation.acceptAsClient(response: ["permessage-deflate; bogus"], configuration: .init())
        }
        #expect(throws: WebSocketHandshakeError.self) {
            try PerMessageDeflateNegotiation.acceptAsClient(response: ["permessage-deflate, permessage-deflate"], configuration: .init())
        }
        #expect(throws: WebSocketHandshakeError.self) {
            try PerMessageDeflateNegotiation.acceptAsClient(response: ["permessage-deflate; server_max_window_bits=+10"], configuration: .init())
        }
    }
}

@Suite struct ZlibTests {
    let allocator = ByteBufferAllocator()

    private func inflate(_ inflater: ZlibInflater, _ compressed: ByteBuffer, limit: Int = 1 << 20) throws -> String {
        var out = ByteBuffer()
        try inflater.inflate(compressed, into: &out, limit: limit)
        try inflater.finishMessage(into: &out, limit: limit)
        return String(buffer: out)
    }

    /// RFC 7692 §7.2.3.1: "Hello" compressed without context is c1 07 f2 48 cd c9 c9 07 00.
    @Test func matchesTheRFCExample() throws {
        let deflater = try ZlibDeflater(windowBits: 15)
        let compressed = deflater.compress(ByteBuffer(string: "Hello"), allocator: allocator)
        #expect(hexString(compressed) == "f2 48 cd c9 c9 07 00")
        #expect(try inflate(try ZlibInflater(windowBits: 15), hexBuffer("f2 48 cd c9 c9 07 00")) == "Hello")
    }

    /// With context takeover the second "Hello" is a back-reference into the first: shorter.
    @Test func contextTakeoverCarriesTheWindowAcrossMessages() throws {
        let deflater = try ZlibDeflater(windowBits: 15)
        let inflater = try ZlibInflater(windowBits: 15)
        let first = deflater.compress(ByteBuffer(string: "Hello"), allocator: allocator)
        let second = deflater.compress(ByteBuffer(string: "Hello"), allocator: allocator)
        #expect(second.readableBytes < first.readableBytes)
        #expect(try inflate(inflater, first) == "Hello")
        #expect(try inflate(inflater, second) == "Hello")
    }

    @Test func emptyMessageRoundTrips() throws {
        let compressed = try ZlibDeflater(windowBits: 15).compress(ByteBuffer(), allocator: allocator)
        // An empty stored block with its 00 00 FF FF tail stripped; RFC 7692 §7.2.3.6's "02 00" is
        // another valid encoding, and the inflater must take both.
        #expect(hexString(compressed) == "00")
        #expect(try inflate(try ZlibInflater(windowBits: 15), hexBuffer("02 00")) == "")
        #expect(try inflate(try ZlibInflater(windowBits: 15), compressed) == "")
    }

    @Test func zipBombStopsAtTheLimit() throws {
        let bomb = try ZlibDeflater(windowBits: 15).compress(ByteBuffer(repeating: 0x41, count: 10 << 20), allocator: allocator)
        #expect(bomb.readableBytes < 20_000)
        var out = ByteBuffer()
        #expect(throws: InflateFailure.tooBig(limit: 65536)) {
            try ZlibInflater(windowBits: 15).inflate(bomb, into: &out, limit: 65536)
        }
        #expect(out.readableBytes <= 65537)
    }

    @Test func exactlyAtTheLimitIsAllowed() throws {
        let payload = ByteBuffer(repeating: 0x42, count: 4096)
        let compressed = try ZlibDeflater(windowBits: 15).compress(payload, allocator: allocator)
        #expect(try inflate(try ZlibInflater(windowBits: 15), compressed, limit: 4096).count == 4096)
    }

    @Test func corruptDataIsAnError() throws {
        var out = ByteBuffer()
        #expect(throws: InflateFailure.self) {
            try ZlibInflater(windowBits: 15).inflate(hexBuffer("ff ff ff ff ff"), into: &out, limit: 1024)
        }
    }
}
