import ArgumentParser
import Synchronization
import WebSocketCore

/// The fixed parameters of a `rooms` (or `darts`) run, as recorded in its report. For darts, `rooms`
/// are matches and `intervalSeconds` is each player's: the match throws every `interval / players`.
struct RoomsParameters: Codable, Sendable {
    var game: LoadGame = .rummy
    var url: String
    var rooms: Int
    var players: Int
    var spectators: Int
    var intervalSeconds: Double
    var durationSeconds: Double
    var setupConcurrency: Int
    var setupTimeoutSeconds: Double
    var drainSeconds: Double
    var sourceAddresses: Int
    var compress: Bool
    var seed: UInt64

    var membersPerRoom: Int { players + spectators }

    /// The checks `rooms` and `darts` make of the options they share.
    static func validate(
        spectators: Int, interval: Double, duration: Double, drain: Double, setupTimeout: Double, setupConcurrency: Int
    ) throws {
        guard spectators >= 0 else { throw ValidationError("--spectators cannot be negative.") }
        guard interval > 0, duration > 0, drain >= 0, setupTimeout > 0 else {
            throw ValidationError("--interval, --duration and --setup-timeout must be positive, --drain at least 0.")
        }
        guard setupConcurrency > 0 else { throw ValidationError("--setup-concurrency must be at least 1.") }
    }
    var connections: Int { rooms * membersPerRoom }
    var interval: Duration { .nanoseconds(Int64(intervalSeconds * 1e9)) }
    /// Between one action and the next on one timetable: a rummy player's own, or a darts match's (its
    /// players take turns).
    var step: Duration {
        switch game {
        case .rummy: interval
        case .darts: .nanoseconds(Int64(intervalSeconds * 1e9 / Double(players)))
        }
    }
    var duration: Duration { .nanoseconds(Int64(durationSeconds * 1e9)) }
}

/// Everything the connections of a `rooms` run share: counters, latency recorders and the signals
/// that move the run from set-up to measurement to the end.
final class RoomsRun: Sendable {
    /// Request ids of score submissions are this plus the submission's number on its timetable, so a
    /// reply's id alone gives the time the submission was scheduled for.
    static let submitIDBase: Int64 = 1_000_000

    let parameters: RoomsParameters
    let configurations: [WebSocketClientConfiguration]

    let connectionsOpen = Counter()
    let actionsSent = Counter()
    let replies = Counter()
    let errorReplies = Counter()
    let events = Counter()
    let roomsReady = Counter()
    let roomsFailed = Counter()
    let lostMembers = Counter()
    /// Members that moved to the node of a cluster serving their game during set-up.
    let moves = Counter()
    /// Member tasks still running (the end of the run waits for them, within limits).
    let running = Counter()

    /// Scheduled time → reply arrival, successful submissions.
    let replyLatency = LatencyRecorder()
    /// Scheduled time → the last member of the room holding the new version.
    let fanOutLatency = LatencyRecorder()
    /// Scheduled time → the moment the generator actually sent (its own lag, not the server's).
    let generatorLag = LatencyRecorder()
    /// Connect + upgrade + `hello` reply, per connection.
    let connectLatency = LatencyRecorder()
    /// A room's set-up: first connect to every member holding the started game.
    let roomSetup = LatencyRecorder()

    /// Error replies by code (`RATE_LIMITED`, …), and generator-side findings such as `ROOM_DELETED`.
    let errors = Tally()
    /// Connections that failed or ended early, by reason.
    let failures = Tally()

    /// One entry per second of the run: what the progress line showed.
    let timeline = Mutex<[TimelineEntry]>([])

    /// Opens with the measurement's start time once every room is set up (or failed).
    let start = Gate<ContinuousClock.Instant>()
    /// Opens when the measured window ends (or Ctrl-C): no more submissions.
    let stopSending = Gate<Bool>()
    /// Opens when the run is over: every connection closes.
    let finish = Gate<Bool>()
    /// Each event loop's pending actions (`LoopTimetable`).
    let timetables = LoopTimetables()

    init(parameters: RoomsParameters, configurations: [WebSocketClientConfiguration]) {
        self.parameters = parameters
        self.configurations = configurations
    }

    struct Snapshot: Sendable {
        var actions: Int
        var replies: Int
        var events: Int
    }

    var snapshot: Snapshot {
        Snapshot(actions: actionsSent.current, replies: replies.current, events: events.current)
    }

    func configuration(forConnection index: Int) -> WebSocketClientConfiguration {
        configurations[index % configurations.count]
    }

    /// Timetable `connection`'s offset in the interval, from the run's seed: the load is spread evenly but
    /// the same seed gives the same timetable. (A darts match has one timetable, its host's.)
    func phase(forConnection connection: Int) -> Duration {
        var mixer = SplitMix64(seed: parameters.seed ^ (UInt64(connection) &* 0x9E37_79B9_7F4A_7C15))
        let fraction = Double(mixer.next() >> 11) / Double(1 << 53)
        return parameters.interval * fraction
    }

    /// When action `number` of a timetable with `phase` is due.
    func scheduled(number: Int64, phase: Duration, start: ContinuousClock.Instant) -> ContinuousClock.Instant {
        start + phase + parameters.step * Int(number)
    }
}

/// One second of a `rooms` run, for finding stalls in time: counts in that second, and the latencies
/// recorded in it (milliseconds).
struct TimelineEntry: Codable, Sendable {
    var second: Int
    var phase: String
    var actions: Int
    var replies: Int
    var events: Int
    var errors: Int
    var connections: Int
    var replyP99: Double?
    var replyMax: Double?
    var fanOutP99: Double?
    var fanOutMax: Double?
    var generatorLagMax: Double?
}

/// One room of the run: how its members find each other during set-up, and its fan-out tracker.
final class RoomPlan: Sendable {
    let index: Int
    let tracker: FanOutTracker
    /// The room code, once the host created the room; nil if the room failed first.
    let code = Gate<String?>()
    /// Every other member has joined (players: joined and ready) and subscribed; false if the room failed.
    let membersSetUp = Gate<Bool>()
    /// Why the room failed, if it did.
    let failure = Gate<String>()
    /// The version the game started at.
    let baseline = Gate<Int>()
    private let pendingMembers: Atomic<Int>

    init(index: Int, memberCount: Int, fanOut: LatencyRecorder) {
        self.index = index
        tracker = FanOutTracker(memberCount: memberCount, fanOut: fanOut)
        pendingMembers = Atomic(memberCount - 1)
        if memberCount == 1 { membersSetUp.open(true) }
    }

    var failed: Bool { failure.isOpen }

    /// A member other than the host finished its set-up.
    func memberSetUp() {
        if pendingMembers.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { membersSetUp.open(true) }
    }

    /// The room cannot be measured: release everyone waiting on its set-up.
    func fail(_ reason: String) {
        guard failure.open(reason) else { return }
        code.open(nil)
        baseline.open(0)
        membersSetUp.open(false)
        tracker.caughtUp.open(false)
    }
}

/// A small seeded generator (SplitMix64), so a run's timetable is reproducible from `--seed`.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
