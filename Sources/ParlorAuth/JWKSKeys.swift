import Logging
import ParlorRules
import WebSocketCore

/// One issuer's key set, fetched from its JWKS address and kept by `kid`.
///
/// A known key is answered from memory, always: when the set is older than its `Cache-Control`
/// lifetime, a refetch starts in the background and the request goes on with the key it has. An unknown
/// `kid` (a key the issuer just rotated in) waits for a refetch — at most one a minute, however many
/// unknown kids arrive; requests that come while one is under way wait for that one. A fetch that fails
/// changes nothing: the keys already known keep working while the issuer's server is down.
package actor JWKSKeys {
    package typealias Fetch = @Sendable () async throws -> HTTPClientExchange.Response

    /// At most one fetch per this many seconds, for unknown kids and for refreshes alike.
    static let minimumRefetchSeconds: Int64 = 60

    private let url: HTTPURL
    /// The server's clock: when the keys go stale, and when the next fetch may start.
    private let now: @Sendable () -> Instant
    private let logger: Logger
    private let fetch: Fetch
    private var keys: [String: VerificationKey] = [:]
    /// When the keys must be fetched again (in ms since 1970); nil before the first fetch succeeds.
    private var freshUntil: Int64?
    /// When the last fetch started (ms), whatever came of it.
    private var lastAttempt: Int64?
    /// Why the last fetch failed; nil when it succeeded.
    private var lastFailure: String?
    private var inFlight: Task<Void, Never>?

    package init(url: HTTPURL, now: @escaping @Sendable () -> Instant, logger: Logger, fetch: Fetch? = nil) {
        self.url = url
        self.now = now
        self.logger = logger
        self.fetch = fetch ?? { try await HTTPFetch.get(url) }
    }

    /// The key `kid` names.
    func key(kid: String) async throws(JWTRefusal) -> VerificationKey {
        if let key = keys[kid] {
            refreshInBackgroundIfStale()
            return key
        }
        if let inFlight {
            await inFlight.value
        } else if mayFetch {
            await refetch()
        } else {
            throw .unknownKey(kid)
        }
        if let key = keys[kid] { return key }
        if let lastFailure { throw .keysUnavailable(lastFailure) }
        throw .unknownKey(kid)
    }

    /// Every key known now (for a token without a `kid`), fetching the set first if it never was.
    func knownKeys() async -> [VerificationKey] {
        if freshUntil == nil, inFlight == nil, mayFetch { await refetch() } else if let inFlight { await inFlight.value }
        refreshInBackgroundIfStale()
        return Array(keys.values)
    }

    /// Returns once the fetch under way, if any, has finished (tests look after a background refresh).
    func fetchSettled() async {
        await inFlight?.value
    }

    private var mayFetch: Bool {
        guard let lastAttempt else { return true }
        return now().millisecondsSinceEpoch - lastAttempt >= Self.minimumRefetchSeconds * 1000
    }

    private func refreshInBackgroundIfStale() {
        guard let freshUntil, now().millisecondsSinceEpoch >= freshUntil, inFlight == nil, mayFetch else { return }
        // Not awaited: a known key's request never waits for the issuer's server.
        _ = startFetch()
    }

    private func refetch() async {
        await startFetch().value
    }

    private func startFetch() -> Task<Void, Never> {
        if let inFlight { return inFlight }
        lastAttempt = now().millisecondsSinceEpoch
        let task = Task { await self.performFetch() }
        inFlight = task
        return task
    }

    private func performFetch() async {
        let outcome: Result<HTTPClientExchange.Response, any Error>
        do {
            outcome = .success(try await fetch())
        } catch {
            outcome = .failure(error)
        }
        inFlight = nil
        switch outcome {
        case .failure(let error):
            fail("\(error)")
        case .success(let response) where response.status != 200:
            fail("HTTP \(response.status)")
        case .success(let response):
            do {
                let set = try JWKSet(parsing: response.body)
                keys = set.keys
                freshUntil = now().millisecondsSinceEpoch + JWKSet.lifetime(response.headers) * 1000
                lastFailure = nil
                if !set.skipped.isEmpty {
                    logger.notice("Skipped keys of a JWKS", metadata: ["url": "\(url)", "skipped": "\(set.skipped.joined(separator: "; "))"])
                }
            } catch {
                fail(error.description)
            }
        }
    }

    private func fail(_ why: String) {
        lastFailure = why
        logger.warning("Cannot fetch a JWKS; the keys already known stay in use", metadata: ["url": "\(url)", "reason": "\(why)"])
    }
}
