import Synchronization
import WebSocketCore

/// The fixed parameters of a `soak` run, as recorded in its report.
struct SoakParameters: Codable, Sendable {
    var url: String
    var rooms: Int
    var players: Int
    var spectators: Int
    var intervalSeconds: Double
    var durationSeconds: Double
    var warmupSeconds: Double
    var windowSeconds: Double
    var sampleIntervalSeconds: Double
    var tolerancePercent: Double
    var dropChance: Double
    var unsubscribeChance: Double
    var abandonShare: Double
    var requestTimeoutSeconds: Double
    var sourceAddresses: Int
    var compress: Bool
    var seed: UInt64

    var membersPerRoom: Int { players + spectators }
    var interval: Duration { .nanoseconds(Int64(intervalSeconds * 1e9)) }
    var requestTimeout: Duration { .nanoseconds(Int64(requestTimeoutSeconds * 1e9)) }
}

/// How a room's life ended.
enum SoakFate: String, Codable, Sendable, CaseIterable {
    /// Played until the rules finished the game, then every player left (the room is deleted).
    case finished
    /// Abandoned after a few rounds: every player left (the room is deleted).
    case left
    /// Abandoned after a few rounds: every connection dropped (the room waits for the server's expiry).
    case disconnected
}

/// The rooms invariants over every room life of a soak, added up.
struct SoakChecks: Codable, Sendable {
    /// Room lives whose members' versions were checked.
    var roomsChecked = 0
    /// Members still in their room whose last version was not the room's final one.
    var membersBehind = 0
    /// Room events whose version was not above the member's previous one (the first after observing
    /// again may repeat it).
    var nonIncreasingEvents = 0
    /// Versions some member never received.
    var incompleteVersions = 0
    /// Versions dropped from tracking because too many were in flight.
    var droppedVersions = 0
    /// Observers of a room that was deleted (its last player left) that did not see `data: null` and `end`.
    var deletionsMissed = 0
    /// `unsubscribe` replies that came before their stream's `end` event.
    var endsAfterReply = 0

    mutating func add(_ outcome: FanOutTracker.Outcome) {
        roomsChecked += 1
        membersBehind += outcome.behind
        incompleteVersions += outcome.incomplete
        droppedVersions += outcome.dropped
    }
}

/// Everything the room slots of a `soak` run share: counters, latency recorders, the invariants'
/// totals and the signal to stop starting new room lives.
final class SoakRun: Sendable {
    let parameters: SoakParameters
    /// Polite connections (the close handshake), one configuration per source address.
    let politeConfigurations: [WebSocketClientConfiguration]
    /// Connections that drop abruptly: the generator's close frame and TCP dropped at once.
    let abruptConfigurations: [WebSocketClientConfiguration]

    let connectionsOpen = Counter()
    let connectionsOpened = Counter()
    let requests = Counter()
    let replies = Counter()
    let events = Counter()
    let livesStarted = Counter()
    let livesFailed = Counter()
    /// Room lives that ended, by fate.
    let fates = Tally()
    let drops = Counter()
    let resumes = Counter()
    /// `hello {token}` after a drop that did not resume the same user.
    let notResumed = Counter()
    let unsubscribes = Counter()
    let resubscribes = Counter()
    let roomsDeleted = Counter()
    /// Slot tasks still running.
    let running = Counter()

    /// Request sent → its reply (every request).
    let replyLatency = LatencyRecorder()
    /// Score or round sent → every member of the room holds the version its reply carried.
    let fanOutLatency = LatencyRecorder()
    /// Connect + upgrade, per connection.
    let connectLatency = LatencyRecorder()

    /// Error replies by code, and generator-side findings (`UNEXPECTED_EVENT …`).
    let errors = Tally()
    /// Room lives that failed, by reason.
    let failures = Tally()
    let checks = Mutex(SoakChecks())

    /// Opens when the run's duration is over (or Ctrl-C): no room starts a new life.
    let stop = Gate<Bool>()

    private let connectionNumber = Counter()

    init(parameters: SoakParameters, politeConfigurations: [WebSocketClientConfiguration], abruptConfigurations: [WebSocketClientConfiguration]) {
        self.parameters = parameters
        self.politeConfigurations = politeConfigurations
        self.abruptConfigurations = abruptConfigurations
    }

    /// The configuration of the next connection (round-robin over the source addresses).
    func configuration(abrupt: Bool) -> WebSocketClientConfiguration {
        let configurations = abrupt ? abruptConfigurations : politeConfigurations
        return configurations[connectionNumber.add() % configurations.count]
    }
}
