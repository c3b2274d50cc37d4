import Synchronization

/// Counts by name (error codes, failure reasons), from many connections at once. The number of
/// distinct names is bounded: past `maxKeys`, new names are counted under "other".
final class Tally: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    private let maxKeys: Int

    init(maxKeys: Int = 64) {
        self.maxKeys = maxKeys
    }

    func add(_ key: String, _ count: Int = 1) {
        counts.withLock { counts in
            if counts[key] == nil && counts.count >= maxKeys {
                counts["other", default: 0] += count
            } else {
                counts[key, default: 0] += count
            }
        }
    }

    var snapshot: [String: Int] { counts.withLock { $0 } }
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }
}

/// A counter shared by many connections.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    init() {}

    /// Adds `amount`; returns the new value.
    @discardableResult
    func add(_ amount: Int = 1) -> Int { value.add(amount, ordering: .relaxed).newValue }
    func subtract(_ amount: Int = 1) { value.subtract(amount, ordering: .relaxed) }
    var current: Int { value.load(ordering: .relaxed) }
}
