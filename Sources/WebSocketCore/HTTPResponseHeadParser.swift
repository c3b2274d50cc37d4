import NIOCore

/// Reads an HTTP/1.1 response head off the front of a byte stream, for the client's handshake. The
/// bytes after the head (frames the server sent right after its 101) stay in the buffer.
struct HTTPResponseHeadParser {
    struct Head: Equatable {
        var status: Int
        var reason: String
        var headers: [(name: String, value: String)]

        func values(_ name: String) -> [String] {
            headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        }

        static func == (a: Head, b: Head) -> Bool {
            a.status == b.status && a.reason == b.reason
                && a.headers.elementsEqual(b.headers) { $0.name == $1.name && $0.value == $1.value }
        }
    }

    let maxSize: Int

    /// Returns the head and consumes its bytes, or nil when the blank line has not arrived yet.
    func parse(_ buffer: inout ByteBuffer) throws(WebSocketHandshakeError) -> Head? {
        let view = buffer.readableBytesView
        guard let end = Self.endOfHead(view) else {
            if view.count > maxSize { throw .responseTooLarge(limit: maxSize) }
            return nil
        }
        let headLength = end - view.startIndex
        guard headLength <= maxSize else { throw .responseTooLarge(limit: maxSize) }
        // Safe: `end` lies within the readable bytes.
        let text = buffer.readString(length: headLength)!
        buffer.moveReaderIndex(forwardBy: 4)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        guard let statusLine = lines.popFirst() else { throw .invalidResponse("empty response") }
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...599).contains(status)
        else { throw .invalidResponse("malformed status line") }
        let reason = parts.count == 3 ? String(parts[2]) : ""
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw .invalidResponse("malformed header line") }
            let name = HTTPHeaderTokens.trim(line[..<colon])
            guard HTTPHeaderTokens.isToken(name) else { throw .invalidResponse("malformed header name") }
            headers.append((String(name), String(HTTPHeaderTokens.trim(line[line.index(after: colon)...]))))
        }
        return Head(status: status, reason: reason, headers: headers)
    }

    /// The index of the `\r\n\r\n` that ends the head.
    private static func endOfHead(_ view: ByteBufferView) -> Int? {
        var i = view.startIndex
        let end = view.endIndex
        while i + 3 < end {
            if view[i] == 13 && view[i + 1] == 10 && view[i + 2] == 13 && view[i + 3] == 10 { return i }
            i += 1
        }
        return nil
    }
}
