import Foundation
import NIOHTTP1
import SystemTLS

/// Why an opening handshake failed.
public enum WebSocketHandshakeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with something other than `101 Switching Protocols`.
    case unexpectedStatus(code: Int, reason: String, body: String)
    /// The server's 101 response breaks RFC 6455 §4.1 (wrong Accept, missing Upgrade, …).
    case invalidResponse(String)
    /// The handshake did not complete within the configured time.
    case timedOut
    /// The response head was larger than the configured limit.
    case responseTooLarge(limit: Int)
    /// The connection closed before the handshake completed.
    case connectionClosed

    public var description: String {
        switch self {
        case .unexpectedStatus(let code, let reason, let body):
            body.isEmpty ? "server answered \(code) \(reason)" : "server answered \(code) \(reason): \(body)"
        case .invalidResponse(let why): "invalid handshake response: \(why)"
        case .timedOut: "the WebSocket handshake timed out"
        case .responseTooLarge(let limit): "the handshake response exceeded \(limit) bytes"
        case .connectionClosed: "the connection closed during the WebSocket handshake"
        }
    }
}

/// The opening handshake (RFC 6455 §4).
public enum WebSocketHandshake {
    /// The GUID every `Sec-WebSocket-Accept` is derived with (§1.3).
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    public static let supportedVersion = "13"

    enum Header {
        static let upgrade = "Upgrade"
        static let connection = "Connection"
        static let host = "Host"
        static let key = "Sec-WebSocket-Key"
        static let version = "Sec-WebSocket-Version"
        static let accept = "Sec-WebSocket-Accept"
        static let `protocol` = "Sec-WebSocket-Protocol"
        static let extensions = "Sec-WebSocket-Extensions"
        static let origin = "Origin"
    }

    /// `Sec-WebSocket-Accept` for a client's key: base64(SHA-1(key + GUID)), SHA-1 from the system OpenSSL.
    public static func acceptValue(forKey key: String) -> String {
        Data(SHA1.hash(Array((key + guid).utf8))).base64EncodedString()
    }

    /// A fresh client key: 16 bytes from the CSPRNG, base64-encoded (§4.1).
    public static func makeClientKey() -> String {
        Data(SecureRandom.bytes(count: 16)).base64EncodedString()
    }

    /// Whether a request asks to become a WebSocket at all (as opposed to a plain HTTP request).
    public static func isUpgradeRequest(_ headers: HTTPHeaders) -> Bool {
        HTTPHeaderTokens.listContains(headers[Header.upgrade], token: "websocket")
    }

    // MARK: Server side

    /// A valid upgrade request, ready to be answered with 101.
    public struct ValidatedRequest: Sendable {
        public var acceptValue: String
        /// Subprotocols the client offered, in its order of preference.
        public var requestedSubprotocols: [String]
        /// The `Sec-WebSocket-Extensions` response value and parameters, when compression was agreed.
        public var deflate: (response: String, negotiated: NegotiatedDeflate)?
    }

    /// A request that must be refused, with the status and headers to refuse it with.
    public struct Rejection: Error, Sendable, Equatable {
        public var status: HTTPResponseStatus
        public var reason: String
        public var headers: [(String, String)]

        public init(status: HTTPResponseStatus, reason: String, headers: [(String, String)] = []) {
            self.status = status
            self.reason = reason
            self.headers = headers
        }

        public static func == (a: Rejection, b: Rejection) -> Bool {
            a.status == b.status && a.reason == b.reason
                && a.headers.elementsEqual(b.headers) { $0.0 == $1.0 && $0.1 == $1.1 }
        }
    }

    /// Checks a client's opening handshake against RFC 6455 §4.2.1.
    public static func validate(
        _ head: HTTPRequestHead, compression: PerMessageDeflateConfiguration?
    ) -> Result<ValidatedRequest, Rejection> {
        func bad(_ reason: String) -> Result<ValidatedRequest, Rejection> {
            .failure(Rejection(status: .badRequest, reason: reason))
        }
        guard head.method == .GET else {
            return .failure(Rejection(status: .methodNotAllowed, reason: "A WebSocket upgrade must use GET", headers: [("Allow", "GET")]))
        }
        guard head.version.major > 1 || (head.version.major == 1 && head.version.minor >= 1) else {
            return bad("A WebSocket upgrade needs HTTP/1.1 or later")
        }
        let hosts = head.headers[Header.host]
        guard hosts.count == 1, !hosts[0].isEmpty else { return bad("Exactly one Host header is required") }
        guard HTTPHeaderTokens.listContains(head.headers[Header.upgrade], token: "websocket") else {
            return bad("Upgrade header must contain 'websocket'")
        }
        guard HTTPHeaderTokens.listContains(head.headers[Header.connection], token: "upgrade") else {
            return bad("Connection header must contain 'Upgrade'")
        }
        let versions = head.headers[Header.version].flatMap { HTTPHeaderTokens.commaList(Substring($0)) }
        guard versions.count == 1, versions[0] == Substring(supportedVersion) else {
            return .failure(
                Rejection(
                    status: .upgradeRequired, reason: "Only WebSocket version 13 is supported",
                    headers: [(Header.version, supportedVersion)]))
        }
        let keys = head.headers[Header.key]
        guard keys.count == 1 else { return bad("Exactly one Sec-WebSocket-Key header is required") }
        let key = String(HTTPHeaderTokens.trim(Substring(keys[0])))
        guard key.utf8.count == 24, let decoded = Data(base64Encoded: key), decoded.count == 16 else {
            return bad("Sec-WebSocket-Key must be the base64 encoding of 16 bytes")
        }

        var subprotocols: [String] = []
        for value in head.headers[Header.protocol] {
            for item in HTTPHeaderTokens.commaList(Substring(value)) {
                guard HTTPHeaderTokens.isToken(item) else { return bad("Sec-WebSocket-Protocol has an invalid token") }
                subprotocols.append(String(item))
            }
        }
        let offers = head.headers[Header.extensions]
        if !offers.isEmpty && HTTPHeaderTokens.extensions(offers) == nil {
            return bad("Sec-WebSocket-Extensions is malformed")
        }
        var deflate: (response: String, negotiated: NegotiatedDeflate)?
        if let compression, !offers.isEmpty {
            deflate = PerMessageDeflateNegotiation.negotiateAsServer(offers: offers, configuration: compression)
        }
        return .success(
            ValidatedRequest(acceptValue: acceptValue(forKey: key), requestedSubprotocols: subprotocols, deflate: deflate))
    }

    // MARK: Client side

    /// The request head our client sends.
    static func clientRequest(
        path: String, host: String, key: String, subprotocols: [String], extensionOffer: String?,
        extraHeaders: [(String, String)]
    ) -> String {
        var lines = [
            "GET \(path) HTTP/1.1",
            "\(Header.host): \(host)",
            "\(Header.upgrade): websocket",
            "\(Header.connection): Upgrade",
            "\(Header.key): \(key)",
            "\(Header.version): \(supportedVersion)",
        ]
        if !subprotocols.isEmpty { lines.append("\(Header.protocol): \(subprotocols.joined(separator: ", "))") }
        if let extensionOffer { lines.append("\(Header.extensions): \(extensionOffer)") }
        for (name, value) in extraHeaders {
            // Header injection guard: a value may not carry a line break.
            guard !name.contains(where: \.isNewline), !value.contains(where: \.isNewline) else { continue }
            lines.append("\(name): \(value)")
        }
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    /// What the server agreed to.
    struct ClientAgreement {
        var subprotocol: String?
        var deflate: NegotiatedDeflate?
    }

    /// Checks the server's response against RFC 6455 §4.1 (the client's duties).
    static func validateServerResponse(
        _ response: HTTPResponseHeadParser.Head, key: String, offeredSubprotocols: [String],
        compression: PerMessageDeflateConfiguration?
    ) throws(WebSocketHandshakeError) -> ClientAgreement {
        guard response.status == 101 else {
            throw .unexpectedStatus(code: response.status, reason: response.reason, body: "")
        }
        guard HTTPHeaderTokens.listContains(response.values(Header.upgrade), token: "websocket") else {
            throw .invalidResponse("missing 'Upgrade: websocket'")
        }
        guard HTTPHeaderTokens.listContains(response.values(Header.connection), token: "upgrade") else {
            throw .invalidResponse("missing 'Connection: Upgrade'")
        }
        let accepts = response.values(Header.accept)
        guard accepts.count == 1, HTTPHeaderTokens.trim(Substring(accepts[0])) == Substring(acceptValue(forKey: key)) else {
            throw .invalidResponse("Sec-WebSocket-Accept does not match our key")
        }
        var subprotocol: String?
        let protocols = response.values(Header.protocol).flatMap { HTTPHeaderTokens.commaList(Substring($0)) }
        if !protocols.isEmpty {
            guard protocols.count == 1, offeredSubprotocols.contains(String(protocols[0])) else {
                throw .invalidResponse("server chose a subprotocol we did not offer")
            }
            subprotocol = String(protocols[0])
        }
        let extensions = response.values(Header.extensions)
        var deflate: NegotiatedDeflate?
        if !extensions.isEmpty {
            guard let compression else { throw .invalidResponse("server accepted an extension we did not offer") }
            deflate = try PerMessageDeflateNegotiation.acceptAsClient(response: extensions, configuration: compression)
        }
        return ClientAgreement(subprotocol: subprotocol, deflate: deflate)
    }
}
