import Foundation

/// Runs a measured operation in batches for a time budget and reports its rate by the wall clock and its
/// cost in this thread's CPU time: on a shared machine other processes stretch the first, hardly the
/// second, so comparisons use the CPU time.
struct CPUTimedLoop {
    /// Operations per second by the wall clock.
    let perSecond: Double
    /// This thread's CPU time per operation, in microseconds.
    let cpuMicroseconds: Double

    /// Warms up with one batch, then runs batches of `batch` calls of `body` until `seconds` have passed.
    init(seconds: Double, batch: Int = 100, _ body: () -> Void) {
        for _ in 0..<batch { body() }
        let clock = ContinuousClock()
        var operations = 0
        let start = clock.now
        let cpuStart = Self.threadCPUSeconds()
        let budget = Duration.milliseconds(Int64(seconds * 1000))
        while clock.now - start < budget {
            for _ in 0..<batch { body() }
            operations += batch
        }
        let cpu = Self.threadCPUSeconds() - cpuStart
        perSecond = Double(operations) / ((clock.now - start) / .seconds(1))
        cpuMicroseconds = cpu * 1e6 / Double(operations)
    }

    /// The CPU time this thread has used, in seconds.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
