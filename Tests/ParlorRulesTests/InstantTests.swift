import Testing
@testable import ParlorRules

@Suite struct InstantTests {
    @Test func formatsUTCWithMilliseconds() {
        #expect(Instant.epoch.iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(Instant(millisecondsSinceEpoch: 1_769_776_496_789).iso8601 == "2026-01-30T12:34:56.789Z")
        #expect(Instant(millisecondsSinceEpoch: 951_782_400_000).iso8601 == "2000-02-29T00:00:00.000Z")
        #expect(Instant(millisecondsSinceEpoch: -1).iso8601 == "1969-12-31T23:59:59.999Z")
    }

    @Test func parsesWhatItFormats() {
        for ms: Int64 in [0, 1, -1, 951_782_400_000, 1_769_776_496_789, 4_102_444_799_999] {
            let instant = Instant(millisecondsSinceEpoch: ms)
            #expect(Instant(iso8601: instant.iso8601) == instant)
        }
    }

    @Test func parsesOffsetsAndFractions() {
        #expect(Instant(iso8601: "2026-01-30T13:34:56+01:00")?.iso8601 == "2026-01-30T12:34:56.000Z")
        #expect(Instant(iso8601: "2026-01-30T12:34:56.7891234Z")?.iso8601 == "2026-01-30T12:34:56.789Z")
        #expect(Instant(iso8601: "2026-01-30T12:34:56.5Z")?.millisecondsSinceEpoch == 1_769_776_496_500)
    }

    @Test func rejectsNonsense() {
        for text in ["", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01 00:00:00Z",
                     "2026-01-01T24:00:00Z", "2026-01-01T00:00:00", "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00Zx"] {
            #expect(Instant(iso8601: text) == nil, "\(text)")
        }
    }

    @Test func arithmeticAndOrder() {
        #expect(t0.adding(seconds: 60).millisecondsSinceEpoch == t0.millisecondsSinceEpoch + 60_000)
        #expect(t0 < t0.adding(milliseconds: 1))
        #expect(t0.milliseconds(until: t0.adding(seconds: 2)) == 2000)
    }
}
