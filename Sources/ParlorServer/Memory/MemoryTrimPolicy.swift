import NIOCore

/// Decides when the server gives freed memory back to the system, from the number of open
/// connections it sees each time it looks: once they have fallen well below their peak since the last
/// time (by `minimumDrop` and by `dropFraction` of the peak) and hold still, and not more
/// often than `minimumSpacing`. A pure value: the reclaimer feeds it counts and carries out its answer.
struct MemoryTrimPolicy: Sendable {
    let configuration: ServerConfiguration.MemoryReclaim
    /// The most connections seen since the last trim (or the start).
    private(set) var peak = 0
    /// The count at the previous look.
    private var previous: Int?
    private var lastTrim: NIODeadline?

    init(_ configuration: ServerConfiguration.MemoryReclaim) {
        self.configuration = configuration
    }

    /// `connections` are open at `now`: true when memory should be given back now.
    mutating func observe(connections: Int, at now: NIODeadline) -> Bool {
        defer { previous = connections }
        peak = max(peak, connections)
        let drop = peak - connections
        guard drop > 0, drop >= configuration.minimumDrop, Double(drop) >= Double(peak) * configuration.dropFraction else {
            return false
        }
        // A wave of closes frees its memory as it goes: a trim in the middle of it gives back little, and
        // contends with the closing for the allocator's locks. Wait until the count holds still (within
        // a twentieth of the drop per look): not falling, and not rising either — a new wave arriving (a
        // reconnect storm after a drop) reuses what the last one freed, and a trim then would hold up its
        // accepts on those locks (19,700 reconnecting at once lost 99 to resets when a trim ran among them).
        guard let previous, abs(connections - previous) <= drop / 20 else { return false }
        if let lastTrim, now - lastTrim < configuration.minimumSpacing { return false }
        lastTrim = now
        // Later drops are measured from here: a second trim needs a new wave of connections to go.
        peak = connections
        return true
    }
}
