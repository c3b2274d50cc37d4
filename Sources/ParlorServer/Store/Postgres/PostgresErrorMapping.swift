// Built only with the PostgreSQL trait (`swift build --traits PostgreSQL`): see Package.swift.
#if PostgreSQL
import PostgresNIO

/// Turns what postgres-nio reports into a `StoreError`: a database that cannot be reached is
/// `.unreachable` (clients get `UNAVAILABLE`, the pool reconnects with backoff), a full disk `.diskFull`,
/// damaged data `.corrupt`, anything else `.failed` — each with the server's SQLSTATE and message for the log.
enum PostgresErrorMapping {
    /// `doing` completes "… failed", e.g. "Saving 3 writes".
    static func storeError(_ error: any Error, doing: String, location: PostgresLocation) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? PostgresTransactionError {
            // The first thing that went wrong is the cause; a failed rollback after it adds nothing.
            if let cause = error.beginError ?? error.closureError ?? error.commitError {
                return storeError(cause, doing: doing, location: location)
            }
        }
        if error is CancellationError {
            return StoreError(.failed, "\(doing) on \(location) was cancelled before it ran.")
        }
        if let error = error as? PostgresDecodingError {
            return StoreError(.corrupt, "\(doing) on \(location) failed: a column does not hold what Parlor stored there (\(error.columnName): \(error.code)).")
        }
        guard let error = error as? PSQLError else {
            return StoreError(.failed, "\(doing) on \(location) failed: \(String(reflecting: error))")
        }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed, .sslUnsupported:
            return unreachable(doing: doing, location: location, detail: "\(error.code)")
        case .server:
            return serverError(error, doing: doing, location: location)
        default:
            return StoreError(.failed, "\(doing) on \(location) failed: \(error.code)")
        }
    }

    static func unreachable(doing: String, location: PostgresLocation, detail: String) -> StoreError {
        StoreError(
            .unreachable,
            "\(doing) failed: PostgreSQL at \(location) cannot be reached (\(detail)). Nothing was changed; Parlor reconnects on its own once the database answers. Check that it is running and reachable from this node.")
    }

    private static func serverError(_ error: PSQLError, doing: String, location: PostgresLocation) -> StoreError {
        let state = error.serverInfo?[.sqlState] ?? "?????"
        let detail = "SQLSTATE \(state): \(error.serverInfo?[.message] ?? "no message")"
        switch state {
        case "53100":
            return StoreError(
                .diskFull,
                "\(doing) failed: the disk of PostgreSQL at \(location) is full (\(detail)). Free space there; everything acknowledged before is intact.")
        case "XX001", "XX002":
            return StoreError(.corrupt, "\(doing) failed: PostgreSQL at \(location) reports damaged data (\(detail)). Restore from a backup.")
        case _ where state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53"):
            // Connection exceptions, the server shutting down or starting, and resources it ran out of.
            return unreachable(doing: doing, location: location, detail: detail)
        case "28000", "28P01", "3D000", "42501":
            return StoreError(
                .unavailable,
                "\(doing) failed: PostgreSQL at \(location) refused Parlor (\(detail)). Check the user, its password and its rights on the database.")
        default:
            return StoreError(.failed, "\(doing) on \(location) failed: \(detail)")
        }
    }
}
#endif
