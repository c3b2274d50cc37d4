import ParlorRules
import Testing
@testable import ParlorServer

/// A user's saved settings by name, in SQLite, PostgreSQL and memory alike.
@Suite struct StoreUserSettingsTests {
    @Test(arguments: StoreAccountsTests.Kind.available) func settingsAreKeptPerUserAndNameAndReplaced(_ kind: StoreAccountsTests.Kind) async throws {
        try await StoreAccountsTests.withStore(kind) { (store: any ParlorStore) async throws in
            let (ann, bo) = (StoreAccountsTests.ann, StoreAccountsTests.bo)
            #expect(try await store.userSettings(ann, name: "photo-quiz") == nil)
            try await store.saveUserSettings(ann, name: "photo-quiz", json: #"{"timerDuration":45}"#)
            try await store.saveUserSettings(ann, name: "other", json: "{}")
            #expect(try await store.userSettings(ann, name: "photo-quiz") == #"{"timerDuration":45}"#)
            #expect(try await store.userSettings(bo, name: "photo-quiz") == nil)
            try await store.saveUserSettings(ann, name: "photo-quiz", json: #"{"timerDuration":60}"#)
            #expect(try await store.userSettings(ann, name: "photo-quiz") == #"{"timerDuration":60}"#)
            #expect(try await store.userSettings(ann, name: "other") == "{}")
        }
    }
}
