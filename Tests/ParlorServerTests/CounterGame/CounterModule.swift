import Foundation
import ParlorRules
import ParlorWire
@testable import ParlorServer

// The counter's registration on the kernel: its definition (codes, wire events, stored form, errors)
// and its operations. In a real game this is `Sources/ParlorServer/Games/<Game>/`, with the
// arguments below in `Sources/ParlorWire/Arguments/`.

struct CounterGame: GameDefinition {
    typealias Rules = Counter
    typealias Code = CounterCode

    static let kind = GameKind("counter", noun: "counter", plural: "counters")
    let codeSpace = CounterCode.space
    let maxGames = 1000

    func newID(code: CounterCode) -> String { "counter-" + code.rawValue }
    func id(of counter: Counter) -> String { counter.id }
    func code(of counter: Counter) -> CounterCode { counter.code }

    func parse(code: String) throws(WireError) -> CounterCode {
        do {
            return try CounterCode(parsing: code)
        } catch {
            throw WireError(.invalidInput, error.message)
        }
    }

    func notFound(code: CounterCode) -> WireError { WireError(.notFound, "No counter has the code \(code).") }
    func notFound(id: String) -> WireError { WireError(.notFound, "Counter \(id) was not found.") }

    func wireError(_ failure: CounterError) -> WireError {
        switch failure {
        case .notMember: WireError(.forbidden, "You are not at this counter.")
        case .invalid(let reason): WireError(.invalidInput, reason)
        case .closed: WireError(.invalidState, "The counter is closed.")
        }
    }

    let publicEvent = EventName(rawValue: "counter")
    let privateEvent: EventName? = EventName(rawValue: "counterPrivate")

    func encodePublicView(_ counter: Counter, at now: Instant) throws(WireError) -> EncodedJSON {
        try EncodedJSON.encoding(counter.publicView)
    }

    func encodePrivateView(_ view: Counter.PrivateView) throws(WireError) -> EncodedJSON {
        try EncodedJSON.encoding(view)
    }

    static func storedJSON(_ counter: Counter) throws(StoreError) -> String { try StoredJSON.encode(counter, what: "counter \(counter.id)") }
    static func decodeStored(_ json: String) throws -> Counter { try JSONDecoder().decode(Counter.self, from: Data(json.utf8)) }
}

struct CounterIdArguments: OperationArguments { let counterId: String }
struct CounterCodeArguments: OperationArguments { let code: String }
struct PressArguments: OperationArguments {
    let counterId: String
    let times: Int
}
struct RemoveCounterPlayerArguments: OperationArguments {
    let code: String
    let playerId: UserID
}
struct BellArguments: OperationArguments {
    let counterId: String
    let seconds: Int
}

/// What the counter's operations answer, as far as these tests read it: they read frames, not types.
struct CounterReply: Decodable, Sendable {}

/// The counter's operations, each declared once (in a real game, in `Sources/ParlorWire/Games/<Game>/`).
enum CounterOperations {
    static let create = OperationDeclaration<EmptyArguments, CounterReply>("createCounter")
    static let join = OperationDeclaration<CounterCodeArguments, CounterReply>("joinCounter")
    static let observe = OperationDeclaration<CounterIdArguments, Subscribed>("observeCounter")
    static let history = OperationDeclaration<EmptyArguments, CounterReply>("closedCounters")
    static let remove = OperationDeclaration<RemoveCounterPlayerArguments, CounterReply>("removeCounterPlayer")
}

struct CounterModule: GameModule {
    func register(in kernel: Kernel) throws -> GameRegistration {
        let host = GameHost(CounterGame(), kernel: kernel)

        func act<Arguments: OperationArguments>(
            _ name: String, _ id: @escaping @Sendable (Arguments) -> String, _ action: @escaping @Sendable (Arguments) -> CounterAction
        ) -> OperationEntry {
            OperationHandler(OperationDeclaration<Arguments, CounterReply>(name)) { args, context throws(WireError) in
                switch try await host.game(id: id(args)).perform(action(args), by: try context.signedIn()) {
                case .game(_, let view, _): .reply(view)
                case .deleted: .reply(.null)
                }
            }.entry()
        }

        let create = OperationHandler(CounterOperations.create) { _, context throws(WireError) in
            let user = try context.signedIn()
            let created = try await host.create { id, code, now throws(CounterError) in Counter.create(id: id, code: code, by: user, at: now) }
            return .reply(created.publicView)
        }
        let join = OperationHandler(CounterOperations.join) { args, context throws(WireError) in
            guard case .game(_, let view, _) = try await host.game(code: args.code).perform(.join, by: try context.signedIn()) else {
                throw WireError.internalError()
            }
            return .reply(view)
        }
        let observe = OperationHandler(CounterOperations.observe) { args, context throws(WireError) in
            .subscribe(try await host.game(id: args.counterId).subscribe(user: context.user)) { topic throws(WireError) in
                try EncodedJSON.encoding(Subscribed(subscription: topic))
            }
        }
        let history = OperationHandler(CounterOperations.history) { _, context throws(WireError) in
            let counters = try await host.history(of: try context.signedIn(), before: nil, limit: 10)
            return .reply(try EncodedJSON.encoding(counters.map(\.publicView)))
        }
        return GameRegistration(game: host, operations: [
            create.entry(), join.entry(), observe.entry(), history.entry(),
            host.kickOperation(CounterOperations.remove, code: \.code, player: \.playerId).entry(),
            act("press", { (a: PressArguments) in a.counterId }) { .press(times: $0.times) },
            act("setBell", { (a: BellArguments) in a.counterId }) { .setBell(seconds: $0.seconds) },
            act("cancelBell", { (a: CounterIdArguments) in a.counterId }) { _ in .cancelBell },
            act("closeCounter", { (a: CounterIdArguments) in a.counterId }) { _ in .close },
            act("leaveCounter", { (a: CounterIdArguments) in a.counterId }) { _ in .leave },
        ])
    }
}
