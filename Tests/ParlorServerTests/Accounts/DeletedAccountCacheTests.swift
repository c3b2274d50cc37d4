import Logging
import ParlorAuth
import ParlorRules
import ParlorWire
import Testing
@testable import ParlorServer

/// Whether a token's user was deleted is asked of the store once per user: the answer is kept, a
/// deletion this node makes or hears of (the cluster's notice) refuses the user from then on without a
/// store read, and when the notices were lost and resume every user is asked afresh.
struct DeletedAccountCacheTests {
    static func deleteInStore(_ store: InMemoryStore, _ user: UserID) async throws {
        var generator = SystemRandomNumberGenerator()
        let outcome = try await store.deleteAccount(user, pseudonym: UserID.random(using: &generator), at: SystemClock().now)
        #expect(outcome == .deleted)
    }

    static func isRefused(_ signIn: AccountSignIn, _ user: UserID) async -> Bool {
        do throws(WireError) {
            try await signIn.refuseDeleted(user)
            return false
        } catch {
            #expect(error.code == .accountDeleted)
            return true
        }
    }

    @Test func theStoreIsAskedOncePerUserAndADeletionHeardRefusesAtOnce() async throws {
        let store = InMemoryStore()
        let signIn = AccountSignIn(
            configuration: AuthConfiguration(), tokens: SessionTokens(secret: Array(repeating: 7, count: 32)), store: store,
            clock: SystemClock(), logger: Logger(label: "parlor.test"))
        var generator = SystemRandomNumberGenerator()
        let ann = UserID.random(using: &generator)
        let bo = UserID.random(using: &generator)

        // Deleted before anyone asked: the store says so.
        try await Self.deleteInStore(store, bo)
        #expect(await Self.isRefused(signIn, bo))
        #expect(signIn.isKnownDeleted(bo))

        // Asked once; deleted on another node whose notice has not arrived: the kept answer stands...
        #expect(!(await Self.isRefused(signIn, ann)))
        try await Self.deleteInStore(store, ann)
        #expect(!(await Self.isRefused(signIn, ann)), "answered from memory, not the store")
        #expect(!signIn.isKnownDeleted(ann))
        // ...until the notices resume after a loss: the store is asked again.
        signIn.noticesResumed()
        #expect(await Self.isRefused(signIn, ann))

        // A deletion heard of refuses at once, whatever the store said before.
        let cy = UserID.random(using: &generator)
        #expect(!(await Self.isRefused(signIn, cy)))
        signIn.accountDeleted(cy)
        #expect(await Self.isRefused(signIn, cy))
        #expect(signIn.isKnownDeleted(cy))
    }
}
