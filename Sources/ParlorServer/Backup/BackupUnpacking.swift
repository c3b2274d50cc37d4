import Foundation
import SystemTLS

extension DataDirectoryRestore {
    /// One pass over the archive: each `data/` entry written under `directory` (its SHA-256 and size
    /// noted as it is written), the manifest kept, the checksum entry compared with the digest of every
    /// byte before it. Judging what was found against the manifest is the caller's (`check`).
    struct Unpacking {
        struct Result {
            var files: [BackupManifest.File] = []
            var manifest: [UInt8]?
            var checksum: (stored: String, computed: String, matches: Bool)?
            /// Folders created for the files, to be flushed before the directory is renamed into place.
            var folders: Set<String> = []
        }

        let reader: BackupArchiveReader
        let directory: String

        init(reader: BackupArchiveReader, into directory: String) {
            self.reader = reader
            self.directory = directory
        }

        private func damaged(_ what: String) -> BackupError {
            BackupError(.damaged, "The archive \(reader.path) is damaged: \(what). Nothing was restored; use another copy of the backup.")
        }

        func run() throws(BackupError) -> Result {
            var result = Result()
            var names: Set<String> = []
            while true {
                let headerOffset = reader.offset
                // The checksum's own entry is not part of what it sums: hash each header only once it is
                // known not to be that entry.
                reader.hashing = false
                let block = try reader.read(exactly: TarHeader.blockSize, inside: "an entry header at byte \(headerOffset)")
                reader.hashing = true
                let header: TarHeader
                switch TarHeader.decode(block) {
                case .end:
                    guard result.checksum != nil else { throw damaged("it ends at byte \(headerOffset) before its \(BackupManifest.checksumName)") }
                    return result
                case .invalid(let reason):
                    throw damaged("\(reason) (at byte \(headerOffset))")
                case .header(let decoded):
                    header = decoded
                }
                guard result.checksum == nil else { throw damaged("\(header.name) follows \(BackupManifest.checksumName), which comes last") }
                guard names.insert(header.name).inserted else { throw damaged("\(header.name) is in it twice") }
                if header.name == BackupManifest.checksumName {
                    let computed = BackupFiles.hex(reader.digest())
                    reader.hashing = false
                    guard header.size <= 128 else { throw damaged("its \(BackupManifest.checksumName) is \(header.size) bytes") }
                    var stored: [UInt8] = []
                    try reader.contents(size: header.size, of: header.name) { stored += $0 }
                    let text = String(decoding: stored, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    result.checksum = (text, computed, text == computed)
                    continue
                }
                block.withUnsafeBytes { reader.hash.update($0) }
                if header.name == BackupManifest.manifestName {
                    guard header.size <= BackupManifest.maxManifestBytes else { throw damaged("its manifest claims \(header.size) bytes") }
                    var bytes: [UInt8] = []
                    try reader.contents(size: header.size, of: header.name) { bytes += $0 }
                    result.manifest = bytes
                } else if header.name.hasPrefix(BackupManifest.dataPrefix) {
                    result.files.append(try unpack(header, folders: &result.folders))
                } else {
                    throw damaged("it holds \(header.name), which no Parlor backup has")
                }
            }
        }

        /// Writes one `data/` entry under the directory, flushed, and returns what was written.
        private func unpack(_ header: TarHeader, folders: inout Set<String>) throws(BackupError) -> BackupManifest.File {
            let relative = String(header.name.dropFirst(BackupManifest.dataPrefix.count))
            let components = relative.split(separator: "/", omittingEmptySubsequences: false)
            guard !components.isEmpty, components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
                throw damaged("it names a file \(header.name), outside any data directory")
            }
            var folder = directory
            for component in components.dropLast() {
                folder += "/" + component
                if mkdir(folder, 0o755) != 0, errno != EEXIST { throw BackupFiles.error("creating \(folder)") }
                folders.insert(folder)
            }
            let path = directory + "/" + relative
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw BackupFiles.error("creating \(path)") }
            defer { close(descriptor) }
            let hash = SHA256Stream()
            try reader.contents(size: header.size, of: header.name) { chunk throws(BackupError) in
                hash.update(chunk)
                try BackupFiles.withBytes(chunk) { bytes throws(BackupError) in try BackupFiles.writeAll(bytes, to: descriptor, path: path) }
            }
            guard fsync(descriptor) == 0 else { throw BackupFiles.error("flushing \(path)") }
            return BackupManifest.File(path: header.name, size: header.size, sha256: BackupFiles.hex(hash.finish()))
        }
    }
}
