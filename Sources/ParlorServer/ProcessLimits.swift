#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging

/// The process's open-file limit: every connection is a descriptor.
enum ProcessLimits {
    /// Descriptors kept back from connections for the database, the word list, logs and accepts.
    static let reservedDescriptors = 256

    /// Raises the soft limit to the hard one, and the hard one as far as the kernel allows when the
    /// process may (root, or CAP_SYS_RESOURCE). Returns the soft limit in force afterwards.
    @discardableResult
    static func raiseOpenFileLimit(logger: Logger) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        let before = limit.rlim_cur
        // Try for the kernel's per-process ceiling first; fall back to the hard limit we have.
        if let ceiling = kernelCeiling(), ceiling > limit.rlim_max {
            var raised = rlimit(rlim_cur: ceiling, rlim_max: ceiling)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 {
                limit = raised
            }
        }
        if limit.rlim_cur < limit.rlim_max {
            var raised = rlimit(rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        if limit.rlim_cur != before {
            logger.info("Raised the open-file limit", metadata: ["from": "\(before)", "to": "\(limit.rlim_cur)"])
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// The most connections the limit leaves room for.
    static func connectionCapacity(openFileLimit: Int) -> Int {
        max(16, openFileLimit - reservedDescriptors)
    }

    /// `fs.nr_open`: what the hard limit may be raised to.
    private static func kernelCeiling() -> rlim_t? {
        guard let text = try? String(contentsOfFile: "/proc/sys/fs/nr_open", encoding: .utf8),
            let value = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return rlim_t(min(value, 1 << 20))
    }
}
