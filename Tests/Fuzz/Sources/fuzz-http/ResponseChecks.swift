import FuzzSupport
import NIOCore
import NIOHTTP1
@testable import WebSocketCore

/// Reads back everything the server wrote and holds it to HTTP/1.1 and RFC 6455 (see `FuzzHTTP.swift`).
struct ResponseChecks {
    let log: ConnectionLog
    let configuration: WebSocketServerConfiguration
    let inputLength: Int

    private struct Head {
        var status: Int
        var headers: [(name: String, value: String)]

        func values(_ name: String) -> [String] {
            headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
    }

    func check(_ bytes: [UInt8]) {
        var position = 0
        var nextAnswer = 0
        var closing = false
        while position < bytes.count {
            require(!closing, "bytes written after a response that said Connection: close")
            guard let end = endOfHead(bytes, from: position) else {
                fatalError("an unterminated response head: \(String(decoding: bytes[position...], as: UTF8.self))")
            }
            let head = parseHead(bytes[position..<end])
            position = end + 4
            if head.status == 101 {
                checkUpgrade(head)
                checkFrames(bytes[position...])
                return
            }
            let lengths = head.values("Content-Length")
            require(lengths.count == 1, "a \(head.status) response with Content-Length \(lengths)")
            guard let length = Int(lengths[0]), length >= 0 else { fatalError("Content-Length \(lengths[0])") }
            var bodyLength = length
            if let answer = head.values("X-Fuzz-Request").first {
                require(answer == "\(nextAnswer)", "answer \(answer) came where answer \(nextAnswer) was due")
                let request = log.requests[nextAnswer]
                nextAnswer += 1
                if request.method == .HEAD { bodyLength = 0 }
                require(length == request.body.readableBytes, "Content-Length \(length) for a body of \(request.body.readableBytes)")
            } else if head.status == 503, nextAnswer < log.requests.count {
                // The grace period ended while the application was answering: the server answers for it.
                nextAnswer += 1
            }
            require(bytes.count - position >= bodyLength, "a body cut short")
            if head.status == 431 {
                require(inputLength > configuration.maxHeaderSize, "431 after only \(inputLength) bytes")
            }
            position += bodyLength
            closing = head.values("Connection").contains { $0.lowercased() == "close" }
        }
        require(nextAnswer == log.requests.count, "\(log.requests.count) requests answered \(nextAnswer) times")
    }

    private func endOfHead(_ bytes: [UInt8], from start: Int) -> Int? {
        var i = start
        while i + 3 < bytes.count {
            if bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { return i }
            i += 1
        }
        return nil
    }

    /// Status line and header lines, split on CRLF as bytes: a CR or LF inside a value shows up as a
    /// malformed line.
    private func parseHead(_ bytes: ArraySlice<UInt8>) -> Head {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == 13, i + 1 < bytes.endIndex, bytes[i + 1] == 10 {
                lines.append(bytes[start..<i])
                i += 2
                start = i
            } else {
                require(bytes[i] != 13 && bytes[i] != 10, "a bare CR or LF in a response head")
                i += 1
            }
        }
        lines.append(bytes[start..<bytes.endIndex])
        let statusLine = String(decoding: lines[0], as: UTF8.self)
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0] == "HTTP/1.1", parts[1].count == 3, let status = Int(parts[1]) else {
            fatalError("a malformed status line: \(statusLine)")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                fatalError("a header line without a colon: \(String(decoding: line, as: UTF8.self))")
            }
            let name = line[..<colon]
            require(UpgradeOracle.isToken(name), "a header name that is not a token: \(String(decoding: name, as: UTF8.self))")
            let value = UpgradeOracle.trimmed(line[(colon + 1)...])
            headers.append((String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
        }
        return Head(status: status, headers: headers)
    }

    private func checkUpgrade(_ head: Head) {
        require(log.upgraded.count == 1, "a 101 with \(log.upgraded.count) upgraded connections")
        guard let request = log.upgradeRequests.last else { fatalError("a 101 for no request") }
        require(UpgradeOracle.listHas(head.values("Upgrade"), "websocket"), "a 101 without Upgrade: websocket")
        require(UpgradeOracle.listHas(head.values("Connection"), "upgrade"), "a 101 without Connection: Upgrade")
        let accepts = head.values("Sec-WebSocket-Accept")
        let key = request.headers["Sec-WebSocket-Key"].first ?? ""
        require(accepts == [UpgradeOracle.accept(forKey: key)], "Accept \(accepts) for key \(key)")

        let offers = request.headers["Sec-WebSocket-Extensions"]
        let expected = configuration.webSocket.compression.flatMap {
            PerMessageDeflateNegotiation.negotiateAsServer(offers: offers, configuration: $0)?.response
        }
        require(head.values("Sec-WebSocket-Extensions") == (expected.map { [$0] } ?? []), "extensions answered \(head.values("Sec-WebSocket-Extensions")) for \(offers)")
        let chosen = head.values("Sec-WebSocket-Protocol")
        require(chosen.count <= 1 && chosen.allSatisfy(request.requestedSubprotocols.contains), "subprotocol \(chosen) for \(request.requestedSubprotocols)")
    }

    /// After the 101: only whole, unmasked server frames, control frames here (the application sends
    /// nothing), a close frame last with a code allowed on the wire.
    private func checkFrames(_ bytes: ArraySlice<UInt8>) {
        let decoder = WebSocketFrameDecoder(role: .client, maxFrameSize: 1 << 30)
        var buffer = ByteBuffer(bytes: bytes)
        var closed = false
        while buffer.readableBytes > 0 {
            require(!closed, "frames after the close frame")
            let frame: WebSocketFrame
            do {
                guard let decoded = try decoder.decode(&buffer) else { fatalError("a frame cut short") }
                frame = decoded
            } catch {
                fatalError("the server wrote a malformed frame: \(error)")
            }
            require(frame.opcode.isControl, "the server sent a \(frame.opcode) frame for an application that sends nothing")
            if frame.opcode == .close {
                closed = true
                if frame.payload.readableBytes > 0 {
                    let code = frame.payload.getInteger(at: frame.payload.readerIndex, as: UInt16.self) ?? 0
                    require(WebSocketCloseCode(rawValue: code).isValidOnWire, "the server closed with code \(code)")
                }
            }
        }
    }
}
