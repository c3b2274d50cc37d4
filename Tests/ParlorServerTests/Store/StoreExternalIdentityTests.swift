import ParlorRules
import Testing
@testable import ParlorServer

/// An account from another provider maps to one user, in SQLite, PostgreSQL and memory alike.
@Suite struct StoreExternalIdentityTests {
    @Test(arguments: StoreAccountsTests.Kind.available) func anAccountSignsInAsTheUserItFirstGot(_ kind: StoreAccountsTests.Kind) async throws {
        try await StoreAccountsTests.withStore(kind) { (store: any ParlorStore) async throws in
            let (ann, bo) = (StoreAccountsTests.ann, StoreAccountsTests.bo)
            let issuer = "https://abc.supabase.co/auth/v1"
            #expect(try await !store.hasExternalIdentity(ann))
            #expect(try await store.user(forIssuer: issuer, subject: "s-1", newUser: ann) == ann)
            #expect(try await store.user(forIssuer: issuer, subject: "s-1", newUser: bo) == ann)
            #expect(try await store.hasExternalIdentity(ann))
            #expect(try await !store.hasExternalIdentity(bo))
            // The same subject at another issuer is another account.
            #expect(try await store.user(forIssuer: "https://securetoken.google.com/p", subject: "s-1", newUser: bo) == bo)
        }
    }

    @Test(arguments: StoreAccountsTests.Kind.available) func aUserLinksToOneAccountThatHasNoUserYet(_ kind: StoreAccountsTests.Kind) async throws {
        try await StoreAccountsTests.withStore(kind) { (store: any ParlorStore) async throws in
            let (ann, bo) = (StoreAccountsTests.ann, StoreAccountsTests.bo)
            let issuer = "https://abc.supabase.co/auth/v1"
            #expect(try await store.link(issuer: issuer, subject: "s-1", to: ann) == .linked)
            #expect(try await store.user(forIssuer: issuer, subject: "s-1", newUser: bo) == ann)
            #expect(try await store.hasExternalIdentity(ann))
            #expect(try await store.link(issuer: issuer, subject: "s-1", to: ann) == .alreadyLinked)
            // Once per user, and never onto an account that has its own user; neither changes anything.
            #expect(try await store.link(issuer: issuer, subject: "s-2", to: ann) == .userHasAnotherAccount)
            #expect(try await store.link(issuer: issuer, subject: "s-1", to: bo) == .accountHasAnotherUser)
            #expect(try await store.user(forIssuer: issuer, subject: "s-2", newUser: bo) == bo)
            #expect(try await store.link(issuer: issuer, subject: "s-2", to: ann) == .accountHasAnotherUser)
            #expect(try await store.user(forIssuer: issuer, subject: "s-1", newUser: bo) == ann)
        }
    }
}
