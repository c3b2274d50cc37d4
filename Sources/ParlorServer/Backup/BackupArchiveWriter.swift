import Foundation
import SystemTLS

/// Writes a backup archive front to back into `sink`: each file's ustar header and contents (hashed as
/// they pass, in chunks: nothing is held whole), then `manifest.json`, then `checksum.sha256` — the
/// SHA-256 of every byte before that last entry — then ustar's end of archive.
final class BackupArchiveWriter {
    typealias Sink = (UnsafeRawBufferPointer) throws(BackupError) -> Void

    /// How much of a file is read (and handed to the sink) at once.
    static let chunkBytes = 64 * 1024

    private let sink: Sink
    private let archiveHash = SHA256Stream()
    private var files: [BackupManifest.File] = []

    init(sink: @escaping Sink) {
        self.sink = sink
    }

    /// Copies the open file `descriptor` (its size now, by `fstat`) as the entry `name`.
    func addFile(_ name: String, descriptor: Int32) throws(BackupError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw BackupFiles.error("reading the size of \(name)") }
        let size = Int64(info.st_size)
        try header(name, size: size, modified: Int64(info.st_mtim.tv_sec))
        let fileHash = SHA256Stream()
        var buffer = [UInt8](repeating: 0, count: Self.chunkBytes)
        var remaining = size
        while remaining > 0 {
            let wanted = Int(min(Int64(buffer.count), remaining))
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw BackupFiles.error("reading \(name)") }
            guard count > 0 else {
                throw BackupError(.io, "\(name) became shorter while it was copied (\(size - remaining) of \(size) bytes); nothing of Parlor's writes a file in place, so something else changed it. Take the backup again.")
            }
            try BackupFiles.withBytes(buffer[0..<count]) { chunk throws(BackupError) in
                fileHash.update(chunk)
                try emit(chunk)
            }
            remaining -= Int64(count)
        }
        try pad(after: size)
        files.append(BackupManifest.File(path: name, size: size, sha256: BackupFiles.hex(fileHash.finish())))
    }

    /// Ends the archive with `manifest`, its `files` set to the entries written, and the checksum entry;
    /// returns the manifest as written.
    func finish(_ manifest: BackupManifest) throws(BackupError) -> BackupManifest {
        var manifest = manifest
        manifest.files = files
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let json: [UInt8]
        do {
            json = Array(try encoder.encode(manifest)) + [UInt8(ascii: "\n")]
        } catch {
            throw BackupError(.io, "The manifest could not be encoded: \(error)")
        }
        try entry(BackupManifest.manifestName, json, hashed: true)
        let checksum = Array((BackupFiles.hex(archiveHash.finish()) + "\n").utf8)
        // Not hashed: the checksum covers every byte before its own entry.
        try entry(BackupManifest.checksumName, checksum, hashed: false)
        let end = [UInt8](repeating: 0, count: 2 * TarHeader.blockSize)
        try BackupFiles.withBytes(end, sink)
        return manifest
    }

    // MARK: Entries

    private func entry(_ name: String, _ contents: [UInt8], hashed: Bool) throws(BackupError) {
        let modified = Int64(Date().timeIntervalSince1970)
        guard let block = TarHeader(name: name, size: Int64(contents.count), modified: modified).encoded() else {
            throw BackupError(.io, "\(name) is too long a name for the archive")
        }
        let padding = [UInt8](repeating: 0, count: TarHeader.padding(after: Int64(contents.count)))
        for part in [block, contents, padding] {
            try BackupFiles.withBytes(part) { bytes throws(BackupError) in
                if hashed { try emit(bytes) } else { try sink(bytes) }
            }
        }
    }

    private func header(_ name: String, size: Int64, modified: Int64) throws(BackupError) {
        guard let block = TarHeader(name: name, size: size, modified: modified).encoded() else {
            throw BackupError(.io, "\(name) is too long a name for a ustar archive (at most 255 bytes, split at a /); rename it or move it out of the data directory.")
        }
        try BackupFiles.withBytes(block, emit)
    }

    private func pad(after size: Int64) throws(BackupError) {
        let padding = [UInt8](repeating: 0, count: TarHeader.padding(after: size))
        try BackupFiles.withBytes(padding, emit)
    }

    private func emit(_ bytes: UnsafeRawBufferPointer) throws(BackupError) {
        archiveHash.update(bytes)
        try sink(bytes)
    }
}
