extension Catalog {
    /// Every problem in the catalog, each with its JSON path; empty when the catalog is sound.
    ///
    /// Mode ids are unique among modes; level ids and game ids are unique across the whole catalog.
    public func validate(limits: CatalogLimits = .default) -> [CatalogProblem] {
        var validator = CatalogValidator(limits: limits)
        validator.check(self)
        return validator.problems
    }
}

private struct CatalogValidator {
    let limits: CatalogLimits
    var problems: [CatalogProblem] = []
    var modeIDs: [String: String] = [:]
    var levelIDs: [String: String] = [:]
    var gameIDs: [String: String] = [:]

    init(limits: CatalogLimits) { self.limits = limits }

    mutating func report(_ path: String, _ message: String) {
        problems.append(CatalogProblem(path: path, message: message))
    }

    mutating func check(_ catalog: Catalog) {
        if catalog.version < 1 { report("version", "must be at least 1 (got \(catalog.version))") }
        checkCount(catalog.gameModes.count, max: limits.maxGameModes, path: "gameModes", noun: "game modes")
        for (index, mode) in catalog.gameModes.enumerated() {
            let path = "gameModes[\(index)]"
            checkID(mode.id, path: path, scope: \.modeIDs)
            checkText(mode.name, path: "\(path).name", max: limits.maxNameLength, required: true)
            checkText(mode.description, path: "\(path).description", max: limits.maxDescriptionLength, required: false)
            checkCount(mode.levels.count, max: limits.maxLevelsPerMode, path: "\(path).levels", noun: "levels")
            for (levelIndex, level) in mode.levels.enumerated() {
                check(level, path: "\(path).levels[\(levelIndex)]")
            }
        }
    }

    mutating func check(_ level: Level, path: String) {
        checkID(level.id, path: path, scope: \.levelIDs)
        checkText(level.name, path: "\(path).name", max: limits.maxNameLength, required: true)
        checkText(level.description, path: "\(path).description", max: limits.maxDescriptionLength, required: false)
        if !limits.difficulties.contains(level.difficulty) {
            report("\(path).difficulty", "must be between \(limits.difficulties.lowerBound) and \(limits.difficulties.upperBound) (got \(level.difficulty))")
        }
        checkCount(level.games.count, max: limits.maxGamesPerLevel, path: "\(path).games", noun: "games")
        for (index, game) in level.games.enumerated() {
            check(game, path: "\(path).games[\(index)]")
        }
    }

    mutating func check(_ game: Game, path: String) {
        checkID(game.id, path: path, scope: \.gameIDs)
        checkText(game.name, path: "\(path).name", max: limits.maxNameLength, required: true)
        checkText(game.description, path: "\(path).description", max: limits.maxDescriptionLength, required: false)
        checkText(game.instructions, path: "\(path).instructions", max: limits.maxInstructionsLength, required: false)
        if !limits.timeLimits.contains(game.timeLimit) {
            report("\(path).timeLimit", "must be between \(limits.timeLimits.lowerBound) and \(limits.timeLimits.upperBound) seconds (got \(game.timeLimit))")
        }
        switch game.kind {
        case .word(let letterPosition, let targetLetter):
            if case .unknown(let value) = letterPosition {
                report("\(path).letterPosition", "must be \"start\", \"end\" or \"contains\" (got \"\(clip(value))\")")
            }
            if !Self.isSingleLetter(targetLetter) {
                report("\(path).targetLetter", "must be a single letter A-Z (got \"\(clip(targetLetter))\")")
            }
        case .category(let answerBank):
            checkAnswers(answerBank, path: "\(path).answerBank", caseSensitive: game.caseSensitive)
        case .unknown(let type):
            report("\(path).type", "must be \"word\" or \"category\" (got \"\(clip(type))\")")
        }
    }

    mutating func checkAnswers(_ answers: [String], path: String, caseSensitive: Bool) {
        checkCount(answers.count, max: limits.maxAnswersPerGame, path: path, noun: "answers")
        var firstIndex: [String: Int] = [:]
        for (index, answer) in answers.enumerated() {
            let key = WordRules.normalized(answer, caseSensitive: caseSensitive)
            if key.isEmpty {
                report("\(path)[\(index)]", "must not be empty")
            } else if key.count > limits.maxAnswerLength {
                report("\(path)[\(index)]", "must be at most \(limits.maxAnswerLength) characters (got \(key.count))")
            } else if let earlier = firstIndex[key] {
                report("\(path)[\(index)]", "duplicates \(path)[\(earlier)] (\"\(clip(answer))\")")
            } else {
                firstIndex[key] = index
            }
        }
    }

    mutating func checkID(_ id: String, path: String, scope: WritableKeyPath<Self, [String: String]>) {
        if id.isEmpty {
            report("\(path).id", "must not be empty")
        } else if id.count > limits.maxIDLength {
            report("\(path).id", "must be at most \(limits.maxIDLength) characters (got \(id.count))")
        } else if !id.unicodeScalars.allSatisfy(Self.isIDScalar) {
            report("\(path).id", "must use only letters, digits, \"-\" and \"_\" (got \"\(clip(id))\")")
        } else if let earlier = self[keyPath: scope][id] {
            report("\(path).id", "\"\(id)\" is already used at \(earlier)")
        } else {
            self[keyPath: scope][id] = path
        }
    }

    mutating func checkText(_ text: String, path: String, max: Int, required: Bool) {
        let trimmed = text.trimmingWhitespace()
        if required && trimmed.isEmpty {
            report(path, "must not be empty")
        } else if text.count > max {
            report(path, "must be at most \(max) characters (got \(text.count))")
        }
    }

    mutating func checkCount(_ count: Int, max: Int, path: String, noun: String) {
        if count == 0 {
            report(path, "must not be empty")
        } else if count > max {
            report(path, "must have at most \(max) \(noun) (got \(count))")
        }
    }

    func clip(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }

    static func isSingleLetter(_ text: String) -> Bool {
        guard text.unicodeScalars.count == 1, let scalar = text.unicodeScalars.first else { return false }
        return ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar)
    }

    static func isIDScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "-" || scalar == "_"
    }
}
