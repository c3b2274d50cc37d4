#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The generator's open-file limit: one descriptor per connection, plus a few of its own.
enum FileLimit {
    /// Descriptors the generator needs besides its connections (event loops, stdio, /proc reads, the report).
    static let reserve = 64

    struct Limits: Sendable, Equatable {
        var soft: Int
        var hard: Int
    }

    static var current: Limits? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        return Limits(soft: clamp(limit.rlim_cur), hard: clamp(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one, then checks that `connections` fit. Returns nil when they
    /// do, else a sentence saying what to change.
    static func raise(for connections: Int) -> String? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        let needed = connections + reserve
        let soft = clamp(limit.rlim_cur)
        guard needed > soft else { return nil }
        return """
            this run needs about \(needed) open files (\(connections) connections + \(reserve) for itself), \
            but this process may open at most \(soft) (soft limit \(soft), hard limit \(clamp(limit.rlim_max))). \
            Raise the limit before running, e.g. `ulimit -n \(needed)` in this shell (above the hard limit that \
            needs root, or a line `* hard nofile \(needed)` in /etc/security/limits.conf and a new login), \
            or run fewer connections.
            """
    }

    private static func clamp(_ value: rlim_t) -> Int {
        value >= rlim_t(Int.max) ? Int.max : Int(value)
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
