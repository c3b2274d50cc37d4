import WebSocketCore

/// Where a Parlor server's WebSocket endpoint is: `ws://localhost:8080/ws`.
///
/// People type `ws://host:port`, `localhost:8080` or `wss://parlor.example`; all are read the same way:
/// the scheme defaults to `ws`, and an empty path means the server's `/ws` endpoint. The normalized
/// text is also the key under which the client's token is kept.
public struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// The WebSocket endpoint Parlor serves.
    public static let defaultPath = "/ws"
    /// The port `parlor-server` listens on unless told otherwise.
    public static let defaultPort = 8080
    /// `ws://localhost:8080/ws`.
    public static let localDefault = ServerAddress(trusted: "ws://localhost:\(defaultPort)\(defaultPath)", host: "localhost", port: defaultPort)

    /// The full URL to connect to.
    public let url: String
    public let host: String
    public let port: Int

    private init(trusted url: String, host: String, port: Int) {
        self.url = url
        self.host = host
        self.port = port
    }

    public init(_ text: String) throws(ParlorClientError) {
        var input = Self.trimmed(text)
        if !input.contains("://") { input = "ws://" + input }
        let parsed: WebSocketURL
        do {
            parsed = try WebSocketURL(input)
        } catch {
            throw .invalidConfiguration("The server address \"\(text)\" is not usable: \(error.description)")
        }
        let scheme = parsed.secure ? "wss" : "ws"
        let host = parsed.host.lowercased()
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let path = parsed.target == "/" ? Self.defaultPath : parsed.target
        self.init(trusted: "\(scheme)://\(shownHost):\(parsed.port)\(path)", host: host, port: parsed.port)
    }

    public var description: String { url }

    private static func trimmed(_ text: String) -> String {
        var slice = Substring(text)
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
