@testable import ParlorWire

/// Texts to feed both decoders, made from valid seeds (every operation's request frame, callable body
/// and REST body): each field missing, null, mistyped, fractional, huge or oddly spelled, repeated,
/// broken text, and seeded random mutations of all of it. Texts are bytes, so a mutation can make them
/// anything, invalid UTF-8 included.
struct FrameCorpus {
    /// A frame as parts, so a mutation can change one of them: `{"id":…,"op":…,"args":{…},…}`.
    struct Frame {
        var members: [Member]

        var bytes: [UInt8] { FrameCorpus.render(members) }
    }

    /// A key (with its quotes) and a value, as text.
    struct Member {
        var key: [UInt8]
        var value: [UInt8]
    }

    /// Valid texts to start from, each an object.
    let seeds: [Frame]

    init(seeds: [[UInt8]]) {
        self.seeds = seeds.map { Frame(members: Self.members(ofObject: $0)) }
    }

    /// One request frame per declared operation (several for some), all valid.
    static let requestFrames: [[UInt8]] = RequestDecodingTests.cases.map { Array($0.0.utf8) }

    /// Values a mutation puts in place of another: every JSON type, numbers an integer field cannot take
    /// or takes only as Foundation does (`1e2`, `100.0`), escapes and surrogates, and text that is not
    /// JSON at all.
    static let values: [[UInt8]] = {
        var values = [
            "null", "true", "false", "0", "-0", "1", "-1", "7", "1.5", "-2.5", "1e2", "1E2", "100.0", "0.1e1", "1e300", "1E400",
            "-1e400", "1e-400", "0e5", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "18446744073709551616", "9007199254740993", "9007199254740993.0", "12345678901234567.5", "1.0000000000000001",
            "01", "1.", ".5", "-", "+1", "0x10", "NaN", "Infinity", "1e", "1e+", "--1",
            #""""#, #""x""#, #""A1B2C3""#, #""\u0041\u0031B2C3""#, #""\u00e9""#, #""e\u0301""#, #""\ud83d\ude00""#,
            #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800\""#, #""\x""#, #""\u12""#, #""\u12G4""#, #""\u0000""#,
            #""\/\b\f\n\r\t\"\\""#, "\"tab\there\"", "\"new\nline\"", "\"\u{7F}\"", "\"caf\u{E9}\"",
            #""00000000-0000-4000-8000-000000000002""#, #""2026-01-30T00:00:00.000Z""#, #""word-start-s""#,
            "{}", "[]", "[1,]", #"{"a":1,}"#, #"{"a":1,"a":2}"#, "[1,2,3]", #"{"x":{"y":[1,{"z":null}]}}"#,
            #"{"roomCode":"A1B2C3","lobbyId":"L1"}"#, #"{"roomCode":"A1B2C3"}"#, #"{"lobbyId":"L1"}"#,
            #"{"username":"Ann","colorNumber":2,"emojiNumber":4}"#, #"{"username":"Ann","colorNumber":2.5,"emojiNumber":4}"#,
            "/* c */ 1", "tru", "nul", "[", "{", "]", "}", #"{"a" 1}"#, #"{"a":}"#, "[1 2]",
            String(repeating: "[", count: 511) + String(repeating: "]", count: 511),
            String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
            String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600),
        ].map { Array($0.utf8) }
        // Bytes that are not UTF-8, in a string: a lone continuation byte, a cut sequence, an overlong `/`,
        // an encoded surrogate, 0xFF.
        for bad: [UInt8] in [[0x80], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF], [0xF4, 0x90, 0x80, 0x80]] {
            values.append([UInt8(ascii: "\"")] + Array("ab".utf8) + bad + [UInt8(ascii: "\"")])
        }
        return values
    }()

    /// Keys a mutation adds or respells.
    static let keys: [[UInt8]] = [
        "id", "op", "args", "extra", "zzz", "aaa", "super", "code", "roomCode", "lobbyId", "playerName", "round", "user", "",
    ].map { Array("\"\($0)\"".utf8) }

    /// Every seed, then each seed with each of its arguments and envelope fields removed, null, or
    /// replaced by each of `values`: the hand-made part of the corpus.
    func systematic() -> [(seed: Int, bytes: [UInt8])] {
        var frames: [(seed: Int, bytes: [UInt8])] = []
        for (number, seed) in seeds.enumerated() {
            func add(_ bytes: [UInt8]) { frames.append((number, bytes)) }
            add(seed.bytes)
            for (index, member) in seed.members.enumerated() {
                var removed = seed
                removed.members.remove(at: index)
                add(removed.bytes)
                var repeated = seed
                repeated.members.append(member)
                add(repeated.bytes)
                for value in Self.values {
                    var replaced = seed
                    replaced.members[index].value = value
                    add(replaced.bytes)
                }
                // The members of an object inside (`args`, `data`), one by one, in the same ways.
                guard member.value.first == UInt8(ascii: "{") else { continue }
                let inner = Self.members(ofObject: member.value)
                func addWithInner(_ changed: [Member]) {
                    var frame = seed
                    frame.members[index].value = Self.render(changed)
                    add(frame.bytes)
                }
                for (argument, _) in inner.enumerated() {
                    var without = inner
                    without.remove(at: argument)
                    addWithInner(without)
                    addWithInner(inner + [inner[argument]])
                    for value in Self.values {
                        var changed = inner
                        changed[argument].value = value
                        addWithInner(changed)
                    }
                }
            }
        }
        return frames
    }

    /// `count` frames, each a seed changed one to four times at random.
    func mutations(count: Int, seed: UInt64) -> [(seed: Int, bytes: [UInt8])] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let number = Int.random(in: seeds.indices, using: &random)
            var frame = seeds[number]
            let structural = Int.random(in: 0...3, using: &random)
            for _ in 0..<structural { Self.mutate(&frame, using: &random) }
            var bytes = frame.bytes
            let textual = structural == 0 ? Int.random(in: 1...2, using: &random) : Int.random(in: 0...1, using: &random)
            for _ in 0..<textual { Self.mutate(&bytes, using: &random) }
            return (number, bytes)
        }
    }

    // MARK: Mutations

    private static func mutate(_ frame: inout Frame, using random: inout SplitMix64) {
        // Half the time, inside `args` or `data`, where the typed fields are.
        let inner = frame.members.firstIndex { $0.key == Array(#""args""#.utf8) || $0.key == Array(#""data""#.utf8) }
        if let inner, frame.members[inner].value.first == UInt8(ascii: "{"), Bool.random(using: &random) {
            var object = Frame(members: members(ofObject: frame.members[inner].value))
            mutateMembers(&object, using: &random)
            frame.members[inner].value = object.bytes
        } else {
            mutateMembers(&frame, using: &random)
        }
    }

    private static func mutateMembers(_ frame: inout Frame, using random: inout SplitMix64) {
        let index = frame.members.isEmpty ? nil : Int.random(in: frame.members.indices, using: &random)
        switch (Int.random(in: 0..<6, using: &random), index) {
        case (0, let index?):
            frame.members[index].value = values.randomElement(using: &random) ?? []
        case (1, let index?):
            frame.members.remove(at: index)
        case (2, let index?):
            frame.members.insert(frame.members[index], at: Int.random(in: 0...frame.members.count, using: &random))
        case (3, let index?):
            frame.members[index].key = escapedKey(frame.members[index].key, using: &random)
        case (4, let index?) where frame.members[index].value.first == UInt8(ascii: "{"):
            // A nested object gets the same treatment.
            var inner = Frame(members: members(ofObject: frame.members[index].value))
            mutateMembers(&inner, using: &random)
            frame.members[index].value = inner.bytes
        default:
            let member = Member(key: keys.randomElement(using: &random) ?? [], value: values.randomElement(using: &random) ?? [])
            frame.members.insert(member, at: Int.random(in: 0...frame.members.count, using: &random))
        }
    }

    /// The same key with one character written as a `\u` escape, or with `é` in either spelling.
    private static func escapedKey(_ key: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        let inner = Array(key.dropFirst().dropLast())
        guard !inner.isEmpty, Int.random(in: 0..<4, using: &random) != 0 else {
            return Array((Bool.random(using: &random) ? "\"\u{E9}\"" : #""e\u0301""#).utf8)
        }
        let at = Int.random(in: inner.indices, using: &random)
        let hex = String(inner[at], radix: 16)
        let escape = Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        return [UInt8(ascii: "\"")] + inner[..<at] + escape + inner[(at + 1)...] + [UInt8(ascii: "\"")]
    }

    private static let interestingBytes: [UInt8] = Array(#"{}[],:"\0123456789-+.eEtfnu "#.utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xE9, 0xFF]

    private static func mutate(_ bytes: inout [UInt8], using random: inout SplitMix64) {
        guard !bytes.isEmpty else {
            bytes = [interestingBytes.randomElement(using: &random) ?? 0]
            return
        }
        let at = Int.random(in: bytes.indices, using: &random)
        let byte = interestingBytes.randomElement(using: &random) ?? 0
        switch Int.random(in: 0..<6, using: &random) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(byte, at: at)
        case 2: bytes[at] = byte
        case 3: bytes.removeSubrange(at...)
        case 4:
            let end = min(bytes.count, at + Int.random(in: 1...12, using: &random))
            bytes.insert(contentsOf: bytes[at..<end], at: end)
        default: bytes += Array([" x", "}", "]", ",", " ", "\n", "{}", "\u{0}"].randomElement(using: &random)?.utf8 ?? "".utf8)
        }
    }

    // MARK: Text

    private static func render(_ members: [Member]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in members.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += member.key + [UInt8(ascii: ":")] + member.value
        }
        return out + [UInt8(ascii: "}")]
    }

    /// The members of a valid, compact JSON object's text, split at its top-level commas.
    static func members(ofObject text: [UInt8]) -> [Member] {
        var members: [Member] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start = 1
        var colon: Int?
        for (index, byte) in text.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: ":") where depth == 1 && colon == nil: colon = index
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"):
                if byte != UInt8(ascii: ",") { depth -= 1 }
                guard depth == (byte == UInt8(ascii: ",") ? 1 : 0), let split = colon else { continue }
                members.append(Member(key: Array(text[start..<split]), value: Array(text[(split + 1)..<index])))
                start = index + 1
                colon = nil
            default: break
            }
        }
        return members
    }
}

/// A small seeded generator, so a failing mutation can be found again.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
