import Logging
import NIOConcurrencyHelpers
import ParlorAuth
import ParlorRules
import ParlorWire
import Synchronization

/// `linkAccount {jwt}` (`POST /account/link`): the signed-in caller's identity becomes the account's.
enum LinkAccountOperation {
    static func handler(_ signIn: AccountSignIn) -> OperationHandler<LinkAccountArguments> {
        OperationHandler(Operation.linkAccount) { args, context throws(WireError) in
            .reply(try EncodedJSON.encoding(try await signIn.link(jwt: args.jwt, to: try context.signedIn())))
        }
    }
}

/// How a connection or a request becomes a user: anonymously, by Parlor's own token, or by a JWT from
/// a configured issuer (`AuthConfiguration`), which signs in as the user mapped from (issuer, `sub`) —
/// created on the account's first sign-in, the same on every device after. `hello`, `POST /session`
/// and `Authorization: Bearer` on HTTP all come here, so they cannot disagree.
final class AccountSignIn: Sendable {
    let configuration: AuthConfiguration
    private let verifier: JWTVerifier
    private let tokens: SessionTokens
    private let store: any ParlorStore
    private let clock: any ParlorClock
    private let logger: Logger
    /// Accounts already mapped (a bearer JWT on every HTTP request must not cost a store read each) and,
    /// in `required` mode, users known to have an account. Bounded: emptied when full.
    private let known = NIOLockedValueBox(Known())
    private static let knownLimit = 50_000

    private struct Known {
        var users: [ExternalIdentity: UserID] = [:]
        var accounts: Set<UserID> = []
    }

    /// Whether a token's user was deleted, as far as this node knows without asking the store (each
    /// `hello` and each bearer request would cost a store read otherwise). Correct because every deletion
    /// reaches every node: this node's own directly (`accountDeleted`), another node's by its notice,
    /// heard before the user's next request in all but a moment after the commit; and what was said
    /// while the notices could not be heard is forgotten when they can again (`noticesResumed`).
    private let deletions = NIOLockedValueBox(Deletions())
    /// How many users `deletions.deleted` holds, kept beside it so that every request of every open
    /// connection (`isKnownDeleted`) can skip the shared lock while no deletion has been heard of.
    private let knownDeleted = Atomic<Int>(0)
    /// Bound on each set (emptied, both together, when one is full: the store answers again).
    static let deletionCacheLimit = 50_000

    private struct Deletions {
        /// Deleted users heard of since the server started: refused without asking the store.
        var deleted: Set<UserID> = []
        /// Users the store said were not deleted, since the notices were last resumed.
        var live: Set<UserID> = []
        /// Counts the times what was heard was forgotten (the notices resumed, or `deleted` full): a
        /// store's answer asked for before then is not kept.
        var generation = 0
    }

    init(configuration: AuthConfiguration, tokens: SessionTokens, store: any ParlorStore, clock: any ParlorClock, logger: Logger) {
        self.configuration = configuration
        self.tokens = tokens
        self.store = store
        self.clock = clock
        self.logger = logger
        var keySets: [String: JWKSKeys] = [:]
        for issuer in configuration.issuers {
            if let url = issuer.jwksURL { keySets[issuer.iss] = JWKSKeys(url: url, now: { clock.now }, logger: logger) }
        }
        verifier = JWTVerifier(configuration: configuration, keySets: keySets)
    }

    /// Who a sign-in is: the user, whether that identity existed before, and — signed in with a JWT —
    /// when the JWT expires (`exp`, seconds since 1970).
    struct SignedIn: Sendable {
        let user: UserID
        let resumed: Bool
        var expiresAt: Int64? = nil
    }

    /// Who a `hello` (or `POST /session`) signs in as. `current` is the connection's user, if it has one.
    func hello(_ args: HelloArguments, current: UserID?) async throws(WireError) -> SignedIn {
        if let jwt = args.jwt {
            guard args.token == nil else {
                throw WireError(.badRequest, "Send token or jwt, not both: a jwt signs in as its account.")
            }
            return try await signIn(jwt: jwt)
        }
        if let token = args.token, let user = tokens.verify(token) {
            try await refuseDeleted(user)
            if await mayResume(user) { return SignedIn(user: user, resumed: true) }
        }
        if args.token == nil, let current, await mayResume(current) {
            return SignedIn(user: current, resumed: true)
        }
        guard configuration.mode != .required else {
            throw WireError(.authRequired, "This server signs players in with their accounts only: send hello with your jwt.")
        }
        var generator = SystemRandomNumberGenerator()
        return SignedIn(user: UserID.random(using: &generator), resumed: false)
    }

    /// The user a JWT signs in as; `resumed` is false on the account's first sign-in.
    func signIn(jwt: String) async throws(WireError) -> SignedIn {
        let verified = try await verify(jwt)
        let identity = ExternalIdentity(issuer: verified.issuer, subject: verified.subject)
        if let user = known.withLockedValue({ $0.users[identity] }) {
            return SignedIn(user: user, resumed: true, expiresAt: verified.expiresAt)
        }
        var generator = SystemRandomNumberGenerator()
        let candidate = UserID.random(using: &generator)
        let user: UserID
        do {
            user = try await store.user(forIssuer: identity.issuer, subject: identity.subject, newUser: candidate)
        } catch {
            throw storeFailure(error, "Cannot map an account to its user", identity, "The account could not be signed in; nothing was changed.")
        }
        remember(identity, user)
        return SignedIn(user: user, resumed: user != candidate, expiresAt: verified.expiresAt)
    }

    /// `linkAccount {jwt}`: the account the JWT names signs in as `user` from now on — the user's
    /// profile, history and friends are the account's, since nothing is keyed by anything but the user.
    /// Refused when the account already signs in as another user (ACCOUNT_ALREADY_LINKED: two histories
    /// are never merged) or `user` already has another account (ALREADY_LINKED: a user links once).
    func link(jwt: String, to user: UserID) async throws(WireError) -> LinkAccountResult {
        let verified = try await verify(jwt)
        let identity = ExternalIdentity(issuer: verified.issuer, subject: verified.subject)
        let outcome: ExternalLinkOutcome
        do {
            outcome = try await store.link(issuer: identity.issuer, subject: identity.subject, to: user)
        } catch {
            throw storeFailure(error, "Cannot link a user to an account", identity, "The account could not be linked; nothing was changed.")
        }
        switch outcome {
        case .linked, .alreadyLinked:
            remember(identity, user)
            logger.info("Linked a user to an account", metadata: ["user": "\(user)", "issuer": "\(identity.issuer)"])
            return LinkAccountResult(userId: user, issuer: identity.issuer, subject: identity.subject, alreadyLinked: outcome == .alreadyLinked)
        case .accountHasAnotherUser:
            throw WireError(
                .accountAlreadyLinked,
                "That account already has its own Parlor identity; sign in with it (hello {jwt}) to use it. Two identities are never merged.")
        case .userHasAnotherAccount:
            throw WireError(.alreadyLinked, "This identity is already linked to another account; an identity links to one account only.")
        }
    }

    /// A store that failed an account's sign-in or link, logged, as the caller is told: UNAVAILABLE when
    /// the database cannot be reached, INTERNAL otherwise.
    private func storeFailure(_ error: StoreError, _ logged: Logger.Message, _ identity: ExternalIdentity, _ told: String) -> WireError {
        logger.error(logged, metadata: ["issuer": "\(identity.issuer)", "error": "\(error)"])
        return WireError(error.kind == .unreachable ? .unavailable : .internal, told)
    }

    /// The token a JWT is, verified; a refusal is the wire's error.
    private func verify(_ jwt: String) async throws(WireError) -> VerifiedToken {
        guard configuration.mode != .anonymous, !configuration.issuers.isEmpty else {
            throw WireError(.authNotConfigured, "This server signs in anonymously only: send hello without a jwt.")
        }
        do {
            return try await verifier.verify(jwt, now: clock.now)
        } catch {
            logger.debug("Refused a JWT", metadata: ["reason": "\(error.reason)"])
            throw error.wireError
        }
    }

    /// The user `Authorization: Bearer <token>` names: Parlor's own token, or — on a server with issuers —
    /// a JWT (three dot-separated parts). Nil for a token that does not verify (routes that need a user
    /// answer UNAUTHENTICATED, as they always have); a JWT that is refused is the refusal.
    func bearer(_ token: String) async -> Result<UserID, WireError>? {
        if let user = tokens.verify(token) {
            do {
                try await refuseDeleted(user)
            } catch {
                return .failure(error)
            }
            return await mayResume(user) ? .success(user) : nil
        }
        guard configuration.mode != .anonymous, token.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 2 else { return nil }
        do {
            return .success(try await signIn(jwt: token).user)
        } catch {
            return .failure(error)
        }
    }

    /// A Parlor token resumes its user, unless the server signs in with accounts only and the user
    /// has none (a token from before the server required accounts).
    func mayResume(_ user: UserID) async -> Bool {
        guard configuration.mode == .required else { return true }
        if known.withLockedValue({ $0.accounts.contains(user) }) { return true }
        guard (try? await store.hasExternalIdentity(user)) == true else { return false }
        known.withLockedValue { known in
            if known.accounts.count >= Self.knownLimit { known.accounts.removeAll() }
            known.accounts.insert(user)
        }
        return true
    }

    /// A deleted account's tokens sign in no more (ACCOUNT_DELETED), on every node: the store keeps the
    /// deleted user's fingerprint, asked once per user (`deletions`). A store that cannot answer lets the
    /// token through, as every other sign-in by token does without asking it.
    func refuseDeleted(_ user: UserID) async throws(WireError) {
        let (known, generation) = deletions.withLockedValue { deletions -> (Bool?, Int) in
            if deletions.deleted.contains(user) { return (true, deletions.generation) }
            return (deletions.live.contains(user) ? false : nil, deletions.generation)
        }
        if known == true { throw Self.deleted }
        if known == false { return }
        guard let deleted = try? await store.isDeletedAccount(user) else { return }
        if deleted {
            accountDeleted(user)
            throw Self.deleted
        }
        // A deletion heard while the store was asked is in `deleted`, which is read first: a stale
        // `live` entry never lets the user in.
        deletions.withLockedValue { deletions in
            guard deletions.generation == generation else { return }
            if deletions.live.count >= Self.deletionCacheLimit { deletions.live.removeAll() }
            deletions.live.insert(user)
        }
    }

    /// The user's account was deleted (here, or on another node of the cluster): their tokens are refused
    /// from now on without asking the store.
    func accountDeleted(_ user: UserID) {
        deletions.withLockedValue { deletions in
            if deletions.deleted.count >= Self.deletionCacheLimit {
                deletions.deleted.removeAll()
                deletions.live.removeAll()
                deletions.generation += 1
            }
            deletions.live.remove(user)
            deletions.deleted.insert(user)
            knownDeleted.store(deletions.deleted.count, ordering: .releasing)
        }
    }

    /// Whether this node knows the user's account was deleted (no store read: for every request of an
    /// open connection).
    func isKnownDeleted(_ user: UserID) -> Bool {
        guard knownDeleted.load(ordering: .acquiring) > 0 else { return false }
        return deletions.withLockedValue { $0.deleted.contains(user) }
    }

    /// The cluster's notices are heard again after a while they could not be: a deletion announced
    /// meanwhile was missed, so every user is asked of the store afresh.
    func noticesResumed() {
        deletions.withLockedValue { deletions in
            deletions.live.removeAll()
            deletions.generation += 1
        }
    }

    static let deleted = WireError(.accountDeleted, "This account was deleted; its token signs in no more. Sign in afresh (hello without a token).")

    private func remember(_ identity: ExternalIdentity, _ user: UserID) {
        known.withLockedValue { known in
            if known.users.count >= Self.knownLimit { known.users.removeAll() }
            known.users[identity] = user
            if configuration.mode == .required {
                if known.accounts.count >= Self.knownLimit { known.accounts.removeAll() }
                known.accounts.insert(user)
            }
        }
    }
}
