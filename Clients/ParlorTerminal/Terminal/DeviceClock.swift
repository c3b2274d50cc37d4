import Foundation
import ParlorRules

/// This device's wall clock, to set against the server's (`serverTime`). Only the session reads it, and
/// stamps its events with it, so the logic never reads a clock.
enum DeviceClock {
    static func now() -> Instant {
        Instant(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded()))
    }
}
