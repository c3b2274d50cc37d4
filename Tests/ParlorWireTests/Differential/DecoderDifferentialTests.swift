import Foundation
import ParlorRules
import Testing

@testable import ParlorWire

/// The decoder against Foundation's, text by text: request frames, callable bodies and REST bodies from
/// `FrameCorpus` (every operation, then each field broken in each way, then seeded random mutations)
/// through `RequestEnvelope` and through `FoundationFrameDecoder` (how they were read before), which
/// must give the same request or the same `BadRequest` — id, field and sentence — except in the cases
/// `Deliberate` lists.
@Suite struct DecoderDifferentialTests {
    /// Where the two decoders differ on purpose, and why. Any other difference fails.
    enum Deliberate: String, CaseIterable {
        /// Not RFC 8259 JSON (as `StrictJSONValidator` says, independently of the parser): a trailing
        /// comma, a malformed number or string, a half surrogate pair, a control character or bytes that
        /// are not UTF-8 in a value that is never decoded, which Foundation lets through; or, in one it
        /// decodes, a fault Foundation reports as an argument's (`args could not be read.`, a sentence
        /// about a number) with the id echoed. The whole text is refused as "The frame is not valid
        /// JSON." with a null id — or for a key repeated before the fault, as the old scan also found.
        case notJSON = "not JSON: refused as a whole, wherever the fault is"
        /// Several numbers an integer field cannot take: the new decoder names the first one decoded,
        /// Foundation's `NumberProbe` the first in key order (even a field no operation reads); and a
        /// number beyond `Double` (`1E400`), which the probe cannot place (`args could not be read.`),
        /// is named too.
        case numberPlacedByDecoding = "a number an integer field cannot take, named where it is decoded"
        /// In a callable or REST body, Foundation reports such a number as "The frame is not valid JSON."
        /// (it has no path there, and bodies had no probe); the new decoder names the field.
        case numberInBodyNamed = "a number an integer field cannot take, in a body, named instead of 'not valid JSON'"
        /// A number a floating-point field cannot take (`1E400` overflows, `1e-400` underflows, and `0e5`,
        /// which Foundation's zero check reads as an underflow): the new decoder names that field as
        /// needing a number; the old server's probe, which took every number to be an integer's, named the
        /// first number in key order that is not a whole one (even a valid `longitude`), or in a body
        /// called the whole text "not valid JSON".
        case floatingNumberNamed = "a number a floating-point field cannot take, named where it is decoded"
    }

    static let randomMutations = 4_000

    @Test func requestFramesDecodeAsFoundationDecodesThem() {
        let corpus = FrameCorpus(seeds: FrameCorpus.requestFrames)
        let texts = corpus.systematic() + corpus.mutations(count: Self.randomMutations, seed: 0x5EED_0001)
        var tally = Tally()
        for (_, frame) in texts {
            let ours = Request.decode(frame)
            let theirs = FoundationFrameDecoder.decode(frame) { Operation.registry[OperationName($0)] }
                .map { Request(id: $0.id, operation: $0.call) }
            tally.count(frame, ours: ours, theirs: theirs, isFrame: true)
        }
        tally.report("request frames")
        #expect(tally.compared == texts.count)
    }

    @Test func callableBodiesDecodeAsFoundationDecodesThem() throws {
        let seeds = try Self.seedsWithArguments()
        let corpus = FrameCorpus(seeds: seeds.map { Array(#"{"data":"#.utf8) + $0.arguments + [UInt8(ascii: "}")] })
        let texts = corpus.systematic() + corpus.mutations(count: Self.randomMutations / 2, seed: 0x5EED_0002)
        var tally = Tally()
        for (seed, body) in texts {
            let choice = try #require(Operation.registry[seeds[seed].name])
            tally.count(body, ours: RequestEnvelope.decodeCallable(body, choice), theirs: FoundationFrameDecoder.decodeCallable(body, choice))
        }
        tally.report("callable bodies")
    }

    @Test func restBodiesDecodeAsFoundationDecodesThem() throws {
        let seeds = try Self.seedsWithArguments().filter { Self.bodyTypes[$0.name] != nil }
        #expect(seeds.count >= 8)
        let corpus = FrameCorpus(seeds: seeds.map(\.arguments))
        let texts = corpus.systematic() + corpus.mutations(count: Self.randomMutations / 2, seed: 0x5EED_0003)
        var tally = Tally()
        for (seed, body) in texts {
            let compare = try #require(Self.bodyTypes[seeds[seed].name])
            compare(body, &tally)
        }
        tally.report("REST bodies")
    }

    /// The parser and the independent validator agree on which texts are JSON, for every text of the
    /// corpus and its mutations.
    @Test func theParserRefusesExactlyWhatIsNotJSON() {
        let corpus = FrameCorpus(seeds: FrameCorpus.requestFrames)
        for (_, text) in corpus.systematic() + corpus.mutations(count: Self.randomMutations, seed: 0x5EED_0004) {
            let parsed: Bool
            switch JSONDocument.parse(text) {
            case .success, .failure(.repeatedKey(_, .some)): parsed = true
            case .failure(.invalid), .failure(.repeatedKey(_, .none)): parsed = false
            }
            #expect(parsed == StrictJSONValidator.isValid(text), "\(String(decoding: text, as: UTF8.self))")
        }
    }

    // MARK: Support

    /// The decoders of the REST bodies compared, by the operation whose arguments they take.
    static var bodyTypes: [OperationName: ([UInt8], inout Tally) -> Void] {
        [
            Operation.createRoom.name: compareBody(CreateRoomArguments.self),
            Operation.joinRoom.name: compareBody(JoinRoomArguments.self),
            Operation.setReady.name: compareBody(SetReadyArguments.self),
            Operation.submitScore.name: compareBody(SubmitScoreArguments.self),
            Operation.listGames.name: compareBody(ListGamesArguments.self),
            Operation.hello.name: compareBody(HelloArguments.self),
            Operation.createLobby.name: compareBody(CreateLobbyArguments.self),
            Operation.joinLobby.name: compareBody(JoinLobbyArguments.self),
            Operation.startLobbyGame.name: compareBody(StartLobbyGameArguments.self),
            Operation.getCatalog.name: compareBody(GetCatalogArguments.self),
            Operation.unsubscribe.name: compareBody(UnsubscribeArguments.self),
        ]
    }

    static func compareBody<T: Decodable & Equatable>(_ type: T.Type) -> ([UInt8], inout Tally) -> Void {
        { body, tally in
            tally.count(body, ours: RequestEnvelope.decodeBody(T.self, from: body), theirs: FoundationFrameDecoder.decodeBody(T.self, from: body))
        }
    }

    /// Each seed frame that has arguments: its operation and the text of its `args`.
    static func seedsWithArguments() throws -> [(name: OperationName, arguments: [UInt8])] {
        try FrameCorpus.requestFrames.compactMap { frame in
            let members = FrameCorpus.members(ofObject: frame)
            guard let args = members.first(where: { $0.key == Array(#""args""#.utf8) }), args.value.first == UInt8(ascii: "{") else { return nil }
            let op = try #require(members.first { $0.key == Array(#""op""#.utf8) })
            return (OperationName(String(decoding: op.value.dropFirst().dropLast(), as: UTF8.self)), args.value)
        }
    }

    /// Counts the differences by kind and fails on any that `Deliberate` does not allow.
    struct Tally {
        private(set) var compared = 0
        private(set) var same = 0
        private(set) var deliberate: [Deliberate: Int] = [:]

        mutating func count<T: Equatable>(
            _ text: [UInt8], ours: Result<T, BadRequest>, theirs: Result<T, BadRequest>, isFrame: Bool = false,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            compared += 1
            if ours == theirs {
                same += 1
                return
            }
            if let reason = Self.allowed(text, ours: ours, theirs: theirs, isFrame: isFrame) {
                deliberate[reason, default: 0] += 1
                return
            }
            Issue.record(
                "\(String(decoding: text, as: UTF8.self).debugDescription): decoded \(ours), Foundation \(theirs)", sourceLocation: sourceLocation)
        }

        func report(_ what: String) {
            let differences = Deliberate.allCases.map { "\(deliberate[$0] ?? 0) \($0.rawValue)" }
            print("\(what): \(compared) texts, \(same) decoded alike; deliberately different: \(differences.joined(separator: "; "))")
        }

        private static func allowed<T>(_ text: [UInt8], ours: Result<T, BadRequest>, theirs: Result<T, BadRequest>, isFrame: Bool) -> Deliberate? {
            guard case .failure(let bad) = ours else { return nil }
            if !StrictJSONValidator.isValid(text) {
                let refusedAsText = bad.message == "The frame is not valid JSON."
                    || bad.message.hasSuffix(" appears more than once; send each key once.")
                return bad.id == .null && refusedAsText ? .notJSON : nil
            }
            guard case .failure(let old) = theirs, let field = bad.field else { return nil }
            // Valid JSON and a floating-point field that holds a number no `Double` takes.
            if bad.message == "\(field) must be a number.", Self.holdsNumberNotADouble(text, at: field) {
                let probeNamedOther = isFrame && old.id == bad.id
                    && (old.message.hasSuffix(" must be an integer.") || old.message == "args could not be read.")
                let bodyRefused = !isFrame && old.message == "The frame is not valid JSON."
                return probeNamedOther || bodyRefused ? .floatingNumberNamed : nil
            }
            // Valid JSON: only a number an integer field cannot take, and the field named must hold one.
            guard bad.message == "\(field) must be an integer.",
                Self.holdsNumberNotAnInt(text, at: field)
            else { return nil }
            if isFrame, old.id == bad.id, old.message.hasSuffix(" must be an integer.") || old.message == "args could not be read." {
                return .numberPlacedByDecoding
            }
            if !isFrame, old.message == "The frame is not valid JSON." { return .numberInBodyNamed }
            return nil
        }

        /// Whether the value at `field` (`args.user.colorNumber`) is a number no `Int` can hold.
        private static func holdsNumberNotAnInt(_ text: [UInt8], at field: String) -> Bool {
            guard let (document, value) = number(text, at: field) else { return false }
            return JSONNumber.integer(document.nodes[value], in: document, as: Int.self) == nil
        }

        /// Whether the value at `field` (`args.latitude`) is a number no `Double` takes.
        private static func holdsNumberNotADouble(_ text: [UInt8], at field: String) -> Bool {
            guard let (document, value) = number(text, at: field) else { return false }
            return JSONNumber.floatingPoint(document.nodes[value], in: document, as: Double.self) == nil
        }

        /// The document and the number at `field`, or nil when the text has no number there.
        private static func number(_ text: [UInt8], at field: String) -> (JSONDocument, Int)? {
            guard case .success(let document) = JSONDocument.parse(text) else { return nil }
            var value = JSONDocument.root
            for key in field.split(separator: ".") {
                guard document.kind(value) == .object, let member = document.member(String(key), of: value) else { return nil }
                value = member
            }
            return [.integer, .number].contains(document.kind(value)) ? (document, value) : nil
        }
    }
}
