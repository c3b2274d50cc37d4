import NIOConcurrencyHelpers

/// Keeps the sign-in token a server issued, so the next connection (or the next run) resumes the same
/// user. Keys are ``ParlorClientConfiguration/tokenKey``: the server URL, plus a profile name.
public protocol TokenStore: Sendable {
    /// The token stored under `key`, if any.
    func token(for key: String) -> String?
    /// Stores `token` under `key` (nil forgets it).
    func setToken(_ token: String?, for key: String) throws(TokenStoreError)
}

/// Why a token could not be stored.
public struct TokenStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Tokens kept for the life of the process only.
public final class InMemoryTokenStore: TokenStore {
    private let tokens: NIOLockedValueBox<[String: String]>

    public init(_ tokens: [String: String] = [:]) {
        self.tokens = NIOLockedValueBox(tokens)
    }

    public func token(for key: String) -> String? {
        tokens.withLockedValue { $0[key] }
    }

    public func setToken(_ token: String?, for key: String) throws(TokenStoreError) {
        tokens.withLockedValue { $0[key] = token }
    }
}
