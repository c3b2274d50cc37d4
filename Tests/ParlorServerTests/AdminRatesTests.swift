import NIOCore
import Testing
@testable import ParlorServer

/// The operator's figures read back from the exposition, and turned into rates between looks.
@Suite struct AdminRatesTests {
    static let exposition = """
        # HELP parlor_operations_total Requests answered.
        # TYPE parlor_operations_total counter
        parlor_operations_total{op="joinRoom",outcome="ok"} 90
        parlor_operations_total{op="joinRoom",outcome="ROOM_FULL"} 10
        parlor_operations_total{op="hello",outcome="ok"} 100
        parlor_operation_duration_seconds_bucket{op="hello",le="0.0001"} 50
        parlor_operation_duration_seconds_bucket{op="hello",le="0.001"} 100
        parlor_operation_duration_seconds_bucket{op="hello",le="+Inf"} 100
        parlor_operation_duration_seconds_bucket{op="joinRoom",le="0.0001"} 0
        parlor_operation_duration_seconds_bucket{op="joinRoom",le="0.001"} 98
        parlor_operation_duration_seconds_bucket{op="joinRoom",le="+Inf"} 100
        parlor_operation_duration_seconds_sum{op="joinRoom"} 0.05
        parlor_connections 3
        not a sample
        """

    @Test func theReadingSumsEveryOperation() {
        let reading = ExpositionReading(Self.exposition)
        #expect(reading.operations == 200 && reading.errors == 10)
        #expect(reading.latencyBuckets == [0.0001: 50, 0.001: 198, .infinity: 200])
        #expect(ExpositionReading.latency(0.25, in: reading.latencyBuckets) == 0.0001)
        #expect(ExpositionReading.latency(0.5, in: reading.latencyBuckets) == 0.001)
        #expect(ExpositionReading.latency(0.995, in: reading.latencyBuckets) == nil, "past the last finite bound")
        #expect(ExpositionReading.latency(0.5, in: [:]) == nil)
    }

    @Test func ratesAreTheChangeBetweenTheOldestKeptLookAndThisOne() {
        let rates = AdminRates()
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000_000)
        var before = ExpositionReading()
        before.operations = 100
        before.latencyBuckets = [0.001: 100, .infinity: 100]
        let first = rates.take(.init(at: start, reading: before, storeWrites: 10))
        #expect(first.windowSeconds == 0 && first.operationsPerSecond == 0)
        var after = before
        after.operations = 300
        after.errors = 20
        after.latencyBuckets = [0.001: 100, 0.01: 300, .infinity: 300]
        let second = rates.take(.init(at: start + .seconds(10), reading: after, storeWrites: 60))
        #expect(second.windowSeconds == 10 && second.operationsPerSecond == 20 && second.errorsPerSecond == 2)
        #expect(second.storeWritesPerSecond == 5)
        #expect(second.latencyP50Seconds == 0.01, "only the window's requests count: all of them took over 1 ms")
        // Looks over a minute old leave the window; the rates start again from the next look.
        let third = rates.take(.init(at: start + .seconds(75), reading: after, storeWrites: 60))
        #expect(third.windowSeconds == 0)
        after.operations = 310
        let fourth = rates.take(.init(at: start + .seconds(80), reading: after, storeWrites: 60))
        #expect(fourth.windowSeconds == 5 && fourth.operationsPerSecond == 2)
    }
}
