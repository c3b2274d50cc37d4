/// One playable game of the catalog: a word game (a letter at a position) or a category game
/// (answers from a bank).
///
/// JSON shape (the seed's, flat, `type` discriminating):
/// `{"id","name","description","instructions","timeLimit","caseSensitive","type":"word","letterPosition","targetLetter"}`
/// or `{…,"type":"category","answerBank":[…]}`.
public struct Game: Sendable, Equatable, Codable, Identifiable {
    public enum Kind: Sendable, Equatable {
        case word(letterPosition: LetterPosition, targetLetter: String)
        case category(answerBank: [String])
        /// A `type` this server does not know; `Catalog.validate` reports it.
        case unknown(type: String)

        public var typeName: String {
            switch self {
            case .word: "word"
            case .category: "category"
            case .unknown(let type): type
            }
        }
    }

    public var id: String
    public var name: String
    public var description: String
    public var instructions: String
    /// Seconds.
    public var timeLimit: Int
    public var caseSensitive: Bool
    public var kind: Kind

    public init(
        id: String, name: String, description: String = "", instructions: String = "",
        timeLimit: Int, caseSensitive: Bool = false, kind: Kind
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.instructions = instructions
        self.timeLimit = timeLimit
        self.caseSensitive = caseSensitive
        self.kind = kind
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, description, instructions, timeLimit, caseSensitive, type
        case letterPosition, targetLetter, answerBank
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
        instructions = try container.decodeIfPresent(String.self, forKey: .instructions) ?? ""
        timeLimit = try container.decode(Int.self, forKey: .timeLimit)
        caseSensitive = try container.decodeIfPresent(Bool.self, forKey: .caseSensitive) ?? false
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "word":
            kind = .word(
                letterPosition: try container.decode(LetterPosition.self, forKey: .letterPosition),
                targetLetter: try container.decode(String.self, forKey: .targetLetter))
        case "category":
            kind = .category(answerBank: try container.decode([String].self, forKey: .answerBank))
        default:
            kind = .unknown(type: type)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
        try container.encode(instructions, forKey: .instructions)
        try container.encode(timeLimit, forKey: .timeLimit)
        try container.encode(caseSensitive, forKey: .caseSensitive)
        try container.encode(kind.typeName, forKey: .type)
        switch kind {
        case .word(let letterPosition, let targetLetter):
            try container.encode(letterPosition, forKey: .letterPosition)
            try container.encode(targetLetter, forKey: .targetLetter)
        case .category(let answerBank):
            try container.encode(answerBank, forKey: .answerBank)
        case .unknown:
            break
        }
    }
}
