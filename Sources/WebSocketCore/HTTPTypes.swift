import Foundation
import NIOCore
import NIOHTTP1

/// A plain HTTP request (not an upgrade), body included, as the application's responder sees it.
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request target as sent, e.g. `/rooms/A1B2C3?x=1`.
    public var uri: String
    public var headers: HTTPHeaders
    public var body: ByteBuffer
    public var remoteAddress: SocketAddress?

    public init(method: HTTPMethod, uri: String, headers: HTTPHeaders, body: ByteBuffer = ByteBuffer(), remoteAddress: SocketAddress? = nil) {
        self.method = method
        self.uri = uri
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// The path, percent-decoded, without the query.
    public var path: String { RequestTarget(uri).path }
    /// Query parameters, percent-decoded; the first of repeated names wins.
    public var query: [String: String] { RequestTarget(uri).query }
}

/// A response from the application's responder.
public struct HTTPResponse: Sendable {
    public var status: HTTPResponseStatus
    public var headers: HTTPHeaders
    public var body: ByteBuffer
    /// A body too large to hold, written as it is made instead of `body` (chunked; the connection
    /// closes after it).
    public var bodyStream: HTTPBodyStream?

    public init(status: HTTPResponseStatus, headers: HTTPHeaders = [:], body: ByteBuffer = ByteBuffer()) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyStream = nil
    }

    /// A plain-text response.
    public static func text(_ status: HTTPResponseStatus, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: ByteBuffer(string: text))
    }

    /// A JSON response from already-encoded bytes.
    public static func json(_ status: HTTPResponseStatus, _ body: ByteBuffer) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }
}

/// A response body produced while it is sent (`Transfer-Encoding: chunked`), in bounded memory:
/// `produce` is handed a writer whose every write completes once the socket has taken the chunk, so
/// a producer that waits for each holds one chunk at a time, at the pace of the slowest reader. It
/// returns when the body is complete; if it throws (or a write fails: the client went away), the
/// connection is closed without the body's last chunk, which an HTTP client reports as a cut-short body.
public struct HTTPBodyStream: Sendable {
    public let produce: @Sendable (HTTPBodyWriter) async throws -> Void

    public init(_ produce: @escaping @Sendable (HTTPBodyWriter) async throws -> Void) {
        self.produce = produce
    }
}

/// Writes a streamed body's chunks (``HTTPBodyStream``).
public struct HTTPBodyWriter: Sendable {
    let send: @Sendable (ByteBuffer) -> EventLoopFuture<Void>

    /// Succeeds once the chunk is written to the socket. A future, so that a thread doing blocking
    /// work (reading files) can `wait()` on it and async code can `get()` it.
    public func write(_ chunk: ByteBuffer) -> EventLoopFuture<Void> {
        send(chunk)
    }
}

/// An upgrade request that passed the RFC 6455 checks, offered to the application to accept or refuse.
public struct WebSocketUpgradeRequest: Sendable {
    public var uri: String
    public var headers: HTTPHeaders
    public var remoteAddress: SocketAddress?
    /// Subprotocols the client offered, in its order of preference.
    public var requestedSubprotocols: [String]

    public var path: String { RequestTarget(uri).path }
    public var query: [String: String] { RequestTarget(uri).query }
    public var origin: String? { headers.first(name: "Origin") }
}

/// The application's answer to an upgrade request.
public enum WebSocketUpgradeDecision: Sendable {
    /// Accept, optionally with one of the requested subprotocols and extra response headers.
    case accept(subprotocol: String? = nil, headers: [(String, String)] = [])
    /// Refuse with this status; `reason` becomes the plain-text body.
    case reject(HTTPResponseStatus, reason: String)
}

/// Which `Origin`s may open WebSockets (browsers send it; other clients usually do not).
public enum OriginPolicy: Sendable {
    /// Any origin, or none.
    case any
    /// Only these exact origins (e.g. `https://play.example.com`); requests without an Origin header
    /// (non-browser clients) are allowed.
    case allowList(Set<String>)

    func allows(_ origin: String?) -> Bool {
        switch self {
        case .any: true
        case .allowList(let allowed): origin.map { allowed.contains($0) } ?? true
        }
    }
}

/// Splits a request target into its path and query.
struct RequestTarget {
    var path: String
    var query: [String: String]

    init(_ uri: String) {
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = parts.first.map(String.init) ?? "/"
        path = rawPath.removingPercentEncoding ?? rawPath
        var query: [String: String] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (s: Substring) in
                    String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
                }
                let name = decode(kv[0])
                if query[name] == nil { query[name] = kv.count == 2 ? decode(kv[1]) : "" }
            }
        }
        self.query = query
    }
}
