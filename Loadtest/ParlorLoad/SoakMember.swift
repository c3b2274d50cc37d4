import ParlorRules
import ParlorWire
import Synchronization
import WebSocketCore

/// One connection of a soak member, from connect to close. The room's coordinator asks for it and
/// waits for `opened`; the room slot's task group runs `serve()`, which holds the connection until the
/// coordinator lets go (`release`) or the server closes it.
final class MemberLink: Sendable {
    let url: String
    let configuration: WebSocketClientConfiguration
    let member: SoakMember
    let run: SoakRun
    /// The open connection, or why it could not be opened.
    let opened = Gate<Result<ReceivingConnection, any Error>>()
    /// Opens when the coordinator is done with the connection (or it closed by itself).
    let release = Gate<Bool>()

    init(member: SoakMember, abrupt: Bool) {
        run = member.run
        url = member.run.parameters.url
        configuration = member.run.configuration(abrupt: abrupt)
        self.member = member
    }

    func serve() async {
        let began = ContinuousClock.now
        do {
            try await WebSocketClient.connect(to: url, configuration: configuration) { webSocket in
                run.connectLatency.record(.now - began)
                run.connectionsOpened.add()
                run.connectionsOpen.add()
                defer { run.connectionsOpen.subtract() }
                let member = self.member
                let connection = ReceivingConnection(webSocket.connection, onEvent: { member.handle($0) }, onUnmatchedReply: { member.handle($0) })
                await webSocket.handOver(to: connection)
                webSocket.connection.closeFuture.whenComplete { _ in self.release.open(false) }
                opened.open(.success(connection))
                _ = await release.wait()
                await webSocket.close()
            }
        } catch {
            opened.open(.failure(error))
        }
    }
}

/// One member of one room life: a player (the first is the host) or a spectator. Its user and token
/// outlive its connections: after a drop it comes back as the same user with `hello {token}`.
///
/// Its event handler runs on its connection's event loop and checks what arrives against what the
/// room's coordinator expects: versions only go up (the tracker), the room is deleted only while it is
/// being torn down, a stream ends only when asked to or with its room.
final class SoakMember: Sendable {
    private struct State {
        var userID: UserID?
        var token: String?
        var subscription: Int?
        var link: MemberLink?
        var connection: ReceivingConnection?
        var expectingEnd = false
        var sawEnd = false
        var sawDeletion = false
    }

    let run: SoakRun
    let index: Int
    let isPlayer: Bool
    let name: String
    private let tracker: FanOutTracker
    private let tearingDown: Atomic<Bool>
    private let state = Mutex(State())

    init(run: SoakRun, index: Int, room: String, tracker: FanOutTracker) {
        self.run = run
        self.index = index
        isPlayer = index < run.parameters.players
        name = isPlayer ? "Player \(room)-\(index)" : "Spectator \(room)-\(index)"
        self.tracker = tracker
        tearingDown = Atomic(false)
    }

    var isHost: Bool { index == 0 }

    // MARK: What the coordinator knows

    var userID: UserID? { state.withLock { $0.userID } }
    var token: String? { state.withLock { $0.token } }
    var subscription: Int? { state.withLock { $0.subscription } }
    var connection: ReceivingConnection? { state.withLock { $0.connection } }
    var sawDeletion: Bool { state.withLock { $0.sawDeletion && $0.sawEnd } }

    func signedIn(_ hello: HelloResult) {
        state.withLock {
            $0.userID = hello.userId
            $0.token = hello.token
        }
    }

    func connected(_ link: MemberLink, _ connection: ReceivingConnection) {
        state.withLock {
            $0.link = link
            $0.connection = connection
        }
    }

    func subscribed(_ subscription: Int?) {
        state.withLock {
            $0.subscription = subscription
            $0.expectingEnd = false
            $0.sawEnd = false
        }
    }

    /// An `unsubscribe` is on its way: its stream's `end` is expected before the reply (`sawEnd`).
    func expectEnd() {
        state.withLock {
            $0.expectingEnd = true
            $0.sawEnd = false
        }
    }

    var sawEnd: Bool { state.withLock { $0.sawEnd } }

    /// The room is being torn down: its deletion and the streams' ends are expected now.
    func tearDown() {
        tearingDown.store(true, ordering: .releasing)
    }

    /// Lets go of the connection (politely or abruptly, as it was opened) and waits until it has closed.
    func disconnect() async {
        let (link, connection) = state.withLock { state -> (MemberLink?, ReceivingConnection?) in
            defer {
                state.link = nil
                state.connection = nil
                state.subscription = nil
            }
            return (state.link, state.connection)
        }
        link?.release.open(true)
        _ = await connection?.ended.wait()
    }

    // MARK: Frames

    func handle(_ frame: ScannedFrame) {
        switch frame {
        case .event(_, "room", let version?):
            run.events.add()
            tracker.memberSaw(index, version: version, at: .now)
        case .event(_, "room", nil):
            run.events.add()
            if tearingDown.load(ordering: .acquiring) {
                state.withLock { $0.sawDeletion = true }
            } else {
                run.errors.add("ROOM_DELETED (generator: a room was deleted while it was played)")
            }
        case .event(_, "end", _):
            let expected = state.withLock { state -> Bool in
                state.sawEnd = true
                return state.expectingEnd
            }
            if !expected && !tearingDown.load(ordering: .acquiring) {
                run.errors.add("SUBSCRIPTION_ENDED (generator: a stream ended that nobody ended)")
            }
        case .event(_, "presence", _):
            break  // Who is connected, beside the versions: not a version, so not measured.
        case .event(_, let name, _):
            run.errors.add("UNEXPECTED_EVENT \(name)")
        case .reply:
            run.errors.add("UNEXPECTED_REPLY (generator: a reply to no request in flight)")
        case .unreadable:
            run.errors.add("UNREADABLE_FRAME (generator: a frame it could not read)")
        }
    }
}
