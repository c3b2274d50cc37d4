import Foundation

/// Where a PostgreSQL database is, as an operator writes it: `postgres://user[:password]@host[:port]/database`
/// (`postgresql://` too). Only what Parlor uses is read; anything else in the address is refused, so a
/// typo is not silently ignored.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String

    public init(host: String, port: Int = 5432, username: String, password: String? = nil, database: String) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
    }

    /// Reads an address; the error says what is wrong with it.
    public init(parsing text: String) throws(PostgresLocationError) {
        guard let url = URLComponents(string: text), let scheme = url.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw PostgresLocationError("\(Self.redacted(text)) is not a postgres:// address (postgres://user@host:port/database).")
        }
        guard let host = url.host, !host.isEmpty else {
            throw PostgresLocationError("\(Self.redacted(text)) names no host (postgres://user@host:port/database).")
        }
        guard let user = url.user, !user.isEmpty else {
            throw PostgresLocationError("\(Self.redacted(text)) names no user (postgres://user@host:port/database).")
        }
        // Foundation's `user`, `password` and `path` come percent-decoded.
        let database = String(url.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresLocationError("\(Self.redacted(text)) names no database (postgres://user@host:port/database).")
        }
        if url.query != nil || url.fragment != nil {
            throw PostgresLocationError("\(Self.redacted(text)) has options Parlor does not read; give only user, password, host, port and database.")
        }
        if let port = url.port, !(1...65_535).contains(port) {
            throw PostgresLocationError("\(Self.redacted(text)) has a port outside 1–65535.")
        }
        self.init(
            host: host, port: url.port ?? 5432, username: user, password: url.password,
            database: database)
    }

    /// The address without its password, for logs and error reasons.
    public var description: String { "postgres://\(username)@\(host):\(port)/\(database)" }

    /// `text` with any password replaced, for an error about an address that did not parse.
    static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let schemeEnd = text.range(of: "://")?.upperBound, schemeEnd < at,
            let colon = text[schemeEnd..<at].firstIndex(of: ":")
        else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}

public struct PostgresLocationError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
