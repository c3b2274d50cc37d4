import SystemTLS
import WebSocketCore

/// An `http://` or `https://` address: what `HTTPFetch` can GET.
public struct HTTPURL: Sendable, Equatable, CustomStringConvertible {
    public let secure: Bool
    public let host: String
    public let port: Int
    /// The path and query, from the first `/`.
    public let target: String

    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(Invalid) {
        let rest: Substring
        if text.hasPrefix("https://") {
            secure = true
            rest = text.dropFirst(8)
        } else if text.hasPrefix("http://") {
            secure = false
            rest = text.dropFirst(7)
        } else {
            throw Invalid(description: "must start with https:// (or http:// on a private network)")
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var path = String(rest.dropFirst(authority.count).prefix { $0 != "#" })
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        guard !authority.isEmpty, !authority.contains("@"), !authority.contains(where: { $0 == " " }) else {
            throw Invalid(description: "has no host (or has credentials in it)")
        }
        var host = String(authority)
        var port = secure ? 443 : 80
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw Invalid(description: "has an unclosed IPv6 address") }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let given = Int(after.dropFirst()), (1...65535).contains(given) else { throw Invalid(description: "has a bad port") }
                port = given
            }
            host = String(host[host.index(after: host.startIndex)..<close])
        } else if let colon = host.lastIndex(of: ":") {
            guard let given = Int(host[host.index(after: colon)...]), (1...65535).contains(given) else {
                throw Invalid(description: "has a bad port")
            }
            port = given
            host = String(host[..<colon])
        }
        guard !host.isEmpty else { throw Invalid(description: "has no host") }
        self.host = host
        self.port = port
        target = path
    }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let defaultPort = secure ? 443 : 80
        return "\(secure ? "https" : "http")://\(shownHost)\(port == defaultPort ? "" : ":\(port)")\(target)"
    }
}

/// An issuer's key set fetched with `HTTPClientExchange` (WebSocketCore: NIO, and the system OpenSSL
/// through SystemTLS for `https://`, the certificate checked against the system's roots and the host
/// name) — not async-http-client, which would bring swift-nio-ssl and its BoringSSL. A bounded answer
/// and a deadline for the whole exchange.
enum HTTPFetch {
    static func get(
        _ url: HTTPURL, timeout: Duration = .seconds(10), maxBodyBytes: Int = 256 * 1024, tls: TLSClientContext? = nil
    ) async throws -> HTTPClientExchange.Response {
        let context = url.secure ? try tls ?? TLSClientContext(configuration: TLSClientConfiguration()) : nil
        return try await HTTPClientExchange.perform(
            .GET, host: url.host, port: url.port, target: url.target, tls: context,
            headers: [("Accept", "application/json"), ("User-Agent", "parlor-server")], maxResponseBytes: maxBodyBytes, timeout: timeout)
    }
}
