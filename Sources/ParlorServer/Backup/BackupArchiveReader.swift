import Foundation
import SystemTLS

/// Reads a backup archive front to back from a file, in chunks, keeping the SHA-256 of every byte
/// read so far for the archive's checksum entry (`hashing` off for that entry itself).
final class BackupArchiveReader {
    private let descriptor: Int32
    let path: String
    private(set) var hash = SHA256Stream()
    /// Bytes consumed so far (for messages that say where the archive ends or breaks).
    private(set) var offset: Int64 = 0
    var hashing = true

    init(path: String) throws(BackupError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BackupFiles.error("opening the archive \(path)") }
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// The digest of everything read while hashing was on.
    func digest() -> [UInt8] {
        let value = hash.finish()
        hash = SHA256Stream()
        return value
    }

    /// Up to `count` bytes; fewer only at the end of the file.
    func read(upTo count: Int) throws(BackupError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Foundation.read(descriptor, base + filled, count - filled)
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw BackupFiles.error("reading the archive \(path)") }
            if got == 0 { break }
            filled += got
        }
        if filled < count { bytes.removeLast(count - filled) }
        if hashing { hash.update(bytes) }
        offset += Int64(filled)
        return bytes
    }

    /// Exactly `count` bytes, or a `damaged` error saying the archive ends early (`inside` names where).
    func read(exactly count: Int, inside: String) throws(BackupError) -> [UInt8] {
        let bytes = try read(upTo: count)
        guard bytes.count == count else {
            throw BackupError(.damaged, "The archive \(path) is truncated: it ends at byte \(offset), inside \(inside). Copy it again from where it was made, or use another backup.")
        }
        return bytes
    }

    /// `size` bytes handed to `body` in chunks, then the padding to the next block.
    func contents(size: Int64, of name: String, _ body: ([UInt8]) throws(BackupError) -> Void) throws(BackupError) {
        var remaining = size
        while remaining > 0 {
            let chunk = try read(exactly: Int(min(Int64(BackupArchiveWriter.chunkBytes), remaining)), inside: name)
            try body(chunk)
            remaining -= Int64(chunk.count)
        }
        _ = try read(exactly: TarHeader.padding(after: size), inside: name)
    }
}
