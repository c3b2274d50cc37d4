import Foundation
import NIOCore
import Testing
@testable import WebSocketCore

/// Where the HTTP part of a connection ends and the WebSocket begins, when llhttp and Parlor read an
/// upgrade request differently. `Connection: Upgrade<TAB>` is an upgrade by HTTP's rules (optional
/// whitespace may be a tab) and by Parlor's, but not by llhttp's, so NIO's decoder does not stop after
/// it. A request right behind it in the same packet used to reach the WebSocket handler as an HTTP
/// part, which crashed the server. (Found by `Tests/Fuzz`'s fuzz-http.)
@Suite struct UpgradeBoundaryTests {
    static let tabbedUpgrade = RawConnection.upgradeRequest(path: "/ws")
        .replacingOccurrences(of: "Connection: Upgrade\r\n", with: "Connection: Upgrade\t\r\n")

    @Test func aRequestRightBehindAnUpgradeTheDecoderDoesNotStopAtIsRefused() async throws {
        try await withServer { port, _ in
            let raw = try await RawConnection(port: port)
            try await raw.send(Self.tabbedUpgrade + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await raw.waitUntil { raw.isClosed })
            let text = raw.receivedText
            #expect(text.hasPrefix("HTTP/1.1 400 Bad Request"), "\(text)")
            #expect(text.contains("Connection: close"), "\(text)")
            #expect(text.hasSuffix("Another request followed the upgrade request before its answer\n"), "\(text)")
            #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer only: \(text)")

            // The server is still there for everyone else.
            let next = try await RawConnection(port: port)
            try await next.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(await next.waitUntil { next.isClosed })
            #expect(next.receivedText.hasPrefix("HTTP/1.1 200 OK"), "\(next.receivedText)")
        }
    }

    /// The same request from a client that waits for the 101, as RFC 6455 asks: it is upgraded, and
    /// its frames reach the application.
    @Test func anUpgradeTheDecoderDoesNotStopAtStillCarriesFramesSentAfterThe101() async throws {
        try await withServer { port, _ in
            let raw = try await RawConnection(port: port)
            try await raw.send(Self.tabbedUpgrade)
            #expect(await raw.waitUntil { raw.receivedText.contains("\r\n\r\n") })
            #expect(raw.receivedText.hasPrefix("HTTP/1.1 101 Switching Protocols"), "\(raw.receivedText)")
            try await raw.send(clientFrame(.text, text: "hello"))
            // The echo: an unmasked text frame of 5 bytes.
            #expect(await raw.waitUntil { raw.received.readableBytesView.suffix(7) == [0x81, 0x05] + Array("hello".utf8) })
            await raw.close()
        }
    }

    /// A well-formed upgrade request with the client's first frame in the same packet: llhttp stops
    /// after the request, and the frame reaches the WebSocket.
    @Test func aFrameInTheSamePacketAsAnUpgradeRequestReachesTheWebSocket() async throws {
        try await withServer { port, _ in
            let raw = try await RawConnection(port: port)
            var bytes = ByteBuffer(string: RawConnection.upgradeRequest(path: "/ws"))
            var frame = clientFrame(.text, text: "hello")
            bytes.writeBuffer(&frame)
            try await raw.send(bytes)
            #expect(await raw.waitUntil { raw.received.readableBytesView.suffix(7) == [0x81, 0x05] + Array("hello".utf8) })
            #expect(raw.receivedText.hasPrefix("HTTP/1.1 101 Switching Protocols"), "\(raw.receivedText)")
            await raw.close()
        }
    }
}
