import Synchronization
import Testing

/// `withTimeout`, which the cluster tests wait through: it must give up at its deadline even when
/// what it waits for ignores cancellation, or a stuck wait holds the whole run.
@Suite struct WithTimeoutTests {
    @Test func aBodyThatIgnoresCancellationStillTimesOut() async throws {
        // Awaiting another task's value does not heed cancellation: the task sleeps on regardless, and
        // says when it is done.
        let finished = Mutex(false)
        let stubborn = Task {
            try? await Task.sleep(for: .seconds(5))
            finished.withLock { $0 = true }
            return 1
        }
        await #expect(throws: ProcessTestError.self) {
            try await withTimeout(.milliseconds(200), "a task that ignores cancellation") { await stubborn.value }
        }
        #expect(!finished.withLock { $0 }, "withTimeout gave up while the body still waited, not once it had finished")
        stubborn.cancel()
    }

    @Test func aBodyThatFinishesInTimeGivesItsValue() async throws {
        let value = try await withTimeout(.seconds(10), "an answer") { 42 }
        #expect(value == 42)
    }

    @Test func aBodysErrorIsThrown() async throws {
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await withTimeout(.seconds(10), "a refusal") { () async throws -> Int in throw Refused() }
        }
    }
}
