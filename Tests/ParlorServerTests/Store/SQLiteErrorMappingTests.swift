import ParlorSQLite
import Testing
@testable import ParlorServer

/// SQLite's result codes, extended ones included, land on the `StoreError` kind an operator can act on.
@Suite struct SQLiteErrorMappingTests {
    static let cases: [(code: Int32, kind: StoreError.Kind, hint: String)] = [
        (13, .diskFull, "Free space"),  // SQLITE_FULL
        (11, .corrupt, "move the file"),  // SQLITE_CORRUPT
        (779, .corrupt, "move the file"),  // SQLITE_CORRUPT_INDEX
        (26, .corrupt, "move the file"),  // SQLITE_NOTADB
        (14, .unavailable, "can read and write"),  // SQLITE_CANTOPEN
        (3, .unavailable, "can read and write"),  // SQLITE_PERM
        (8, .unavailable, "can read and write"),  // SQLITE_READONLY
        (1034, .unavailable, "disk is mounted"),  // SQLITE_IOERR_FSYNC
        (5, .failed, "no other Parlor server"),  // SQLITE_BUSY
        (6, .failed, "no other Parlor server"),  // SQLITE_LOCKED
        (19, .failed, "SQLite error 19"),  // SQLITE_CONSTRAINT
    ]

    @Test(arguments: cases)
    func resultCodesMapToActionableKinds(_ example: (code: Int32, kind: StoreError.Kind, hint: String)) {
        let error = SQLiteError(extendedCode: example.code, message: "the message")
        let mapped = SQLiteErrorMapping.storeError(error, doing: "Saving room ABC123", file: "/data/parlor.sqlite")
        #expect(mapped.kind == example.kind)
        #expect(mapped.reason.contains(example.hint), "\(mapped.reason)")
        #expect(mapped.reason.contains("/data/parlor.sqlite"))
        #expect(mapped.reason.contains("the message"), "SQLite's own words are kept for the log")
    }

    @Test func aStoreErrorPassesThroughUnchanged() {
        let original = StoreError(.newerSchema(found: 3, supported: 1), "newer")
        #expect(SQLiteErrorMapping.storeError(original, doing: "Opening", file: "f") == original)
    }

    @Test func cancellationIsAFailureThatSaysSo() {
        let mapped = SQLiteErrorMapping.storeError(CancellationError(), doing: "Loading rooms", file: "/data/parlor.sqlite")
        #expect(mapped.kind == .failed)
        #expect(mapped.reason.contains("cancelled"))
    }
}
