import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ParlorWire
import WebSocketCore

/// `GET /admin/backup` (main port and admin port): the archive `parlor-server backup` writes, streamed
/// to an operator with the admin token as it is made — chunked, one 64 KiB chunk held at a time and
/// written at the reader's pace, the blocking file work on a thread of its own. One backup of a data
/// directory at a time: a second request meanwhile is answered 409 `BACKUP_IN_PROGRESS`. A client
/// that goes away midway ends the backup (its snapshot removed), and the next request may start one.
/// The server stopping (SIGTERM) gives a backup under way its shutdown grace to finish, as any request;
/// one still running then is cut: its connection closed before the chunked body's last chunk (the
/// client's HTTP library reports the transfer incomplete, and the archive has no manifest, which
/// `restore` refuses), and the server waits for it to remove its snapshot before it exits.
struct AdminBackupRoute: Sendable {
    let services: ParlorServices

    static let path = ["admin", "backup"]

    /// The response for `/admin/backup`; nil for any other path.
    func respond(to request: HTTPRequest, path: [String]) async -> HTTPResponse? {
        guard path == Self.path else { return nil }
        if let refusal = AdminAPI.refusal(request, services: services, needing: "/admin/backup") { return refusal }
        guard request.method == .GET else {
            return HTTPRoutes.error(WireError(.methodNotAllowed, "\(request.method) is not supported on /admin/backup; GET it."))
        }
        guard case .sqlite(let store) = services.store.backend else {
            return HTTPRoutes.error(WireError(
                .notFound,
                "This server keeps nothing in a data directory to back up: in memory (--no-persist) there is nothing to keep, and with --postgres back up the database with pg_dump (README, \"Backups\")."))
        }
        let dataDirectory = (store.databasePath as NSString).deletingLastPathComponent
        guard let ticket = BackupTicket(dataDirectory) else {
            return HTTPRoutes.error(WireError(.backupInProgress, "A backup of \(dataDirectory) is being taken; try again once it has finished."))
        }
        let backup = DataDirectoryBackup(dataDirectory: dataDirectory, scratchDirectory: NSTemporaryDirectory())
        let logger = services.logger
        let from = request.remoteAddress?.ipAddress ?? "-"
        var response = HTTPResponse(status: .ok, headers: [
            "Content-Type": "application/x-tar",
            "Content-Disposition": #"attachment; filename="parlor-backup-\#(SystemClock().now.millisecondsSinceEpoch / 1000).tar""#,
            "Cache-Control": "no-store",
        ])
        response.bodyStream = HTTPBodyStream { writer in
            // The ticket lives as long as this closure: until the body is written, fails, or is dropped unsent.
            let manifest = try await ticket.run(backup, into: writer)
            logger.info(
                "Operator took a backup",
                metadata: ["files": "\(manifest.files.count)", "schema": "\(manifest.schemaVersion)", "from": "\(from)"])
        }
        return response
    }
}

/// The one backup of a data directory under way in this process, released when the ticket goes.
final class BackupTicket: Sendable {
    private static let running = NIOLockedValueBox<[String: BackupStop]>([:])
    let dataDirectory: String
    let stop: BackupStop

    init?(_ dataDirectory: String) {
        let key = Self.key(dataDirectory)
        let stop = BackupStop()
        guard Self.running.withLockedValue({ running in
            guard running[key] == nil else { return false }
            running[key] = stop
            return true
        })
        else { return nil }
        self.dataDirectory = key
        self.stop = stop
    }

    deinit {
        _ = Self.running.withLockedValue { $0.removeValue(forKey: dataDirectory) }
    }

    private static func key(_ dataDirectory: String) -> String { URL(fileURLWithPath: dataDirectory).standardizedFileURL.path }

    /// Runs the backup on a thread of its own (it blocks on files and on the socket), each chunk
    /// handed to `writer` and waited for.
    func run(_ backup: DataDirectoryBackup, into writer: HTTPBodyWriter) async throws -> BackupManifest {
        let stop = stop
        try stop.start()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<BackupManifest, any Error>) in
            Thread.detachNewThread {
                defer { stop.end() }
                do {
                    let manifest = try backup.write(stop: stop) { bytes throws(BackupError) in
                        do {
                            try writer.write(ByteBuffer(bytes: bytes)).wait()
                        } catch {
                            throw BackupError(.io, "The client stopped reading the backup: \(error)")
                        }
                    }
                    continuation.resume(returning: manifest)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Stops the backup of `dataDirectory` still running, if any (the server is stopping and its
    /// clients are gone, the operator's stream with them: cut before its end), and waits for its thread
    /// to have removed what it made, at most `timeout`; false if it had not by then.
    static func stop(dataDirectory: String, timeout: Duration) async -> Bool {
        guard let stop = running.withLockedValue({ $0[key(dataDirectory)] }) else { return true }
        stop.stop()
        let deadline = ContinuousClock.now + timeout
        while stop.isWorking {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
