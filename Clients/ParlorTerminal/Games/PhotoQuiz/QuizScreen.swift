import Foundation
import ParlorClient
import ParlorWire

/// Draws the photo quiz as text: a pure function of the state and the terminal's size, so what a person
/// would see can be tested line by line.
///
/// From the top: a status bar, the quiz and its settings, then by phase — while players gather, the code
/// in block letters and who has uploaded what; while a photo is revealed, whose it is, the tiles out and
/// the countdown, the picture filling in (`QuizPhoto`) and who has guessed; once revealed, the place, the
/// date, each guess with its distance and points; at the end, the standings. At the bottom: a message
/// line, the line being typed and the keys.
public enum QuizScreen {
    /// Exactly `height` lines, none wider than `width` columns.
    public static func render(_ state: QuizScreenState, width: Int, height: Int) -> [ScreenLine] {
        let width = max(width, 1)
        let height = max(height, 1)
        let status = StatusBar.line(server: state.server, connection: state.connection, version: state.quiz?.version, access: state.access, width: width)
        let bottom = [messageLine(state), inputLine(state, width: width), keysLine(state, width: width)]
        return ScreenLayout.compose(status: status, bottom: bottom, width: width, height: height) { rows in
            body(state, width: width, rows: rows)
        }
    }

    /// The text only (what tests compare).
    public static func text(_ state: QuizScreenState, width: Int, height: Int) -> [String] {
        render(state, width: width, height: height).map(\.text)
    }

    // MARK: Layout

    static func body(_ state: QuizScreenState, width: Int, rows: Int) -> [ScreenLine] {
        guard let quiz = state.quiz, !state.deleted else {
            return ["", ScreenLine("  Quiz \(state.code)"), ScreenLine(state.deleted ? "  This quiz was deleted." : "  Loading the quiz…", state.deleted ? .bad : .dim)]
        }
        let head: [ScreenLine] = [""] + [summary(quiz), phaseLine(state, quiz)].flatMap { DotWrap.lines($0, width: width) }
        switch quiz.phase {
        case .waiting:
            let players: [ScreenLine] = [""] + quiz.players.map { player -> ScreenLine in
                var line = ScreenLine("  ")
                line.spans += PresenceDot.prefix(player.id, in: state.presence)
                line.append("\(label(player, quiz, state)) · \(counted(player.photoCount, "photo"))")
                return line
            }
            let upload = ["", ScreenLine("  Add photos: parlor quiz upload \(quiz.code) FILE…", .dim)]
            let big = BlockFont.lines(quiz.code.rawValue, width: width)
            let full = head + (big.isEmpty ? [] : [""] + big) + players + upload
            return full.count <= rows ? full : head + players + upload
        case .revealing, .revealed:
            let after = quiz.phase == .revealed ? answerLines(state, quiz) : guessedLine(state, quiz)
            let room = rows - head.count - after.count - 1
            let picture = quiz.currentPhoto.map { QuizPhoto.lines($0, maxColumns: width - 4, maxRows: room) } ?? []
            return head + (picture.isEmpty ? [] : [""] + picture) + after
        default:
            return head + standingLines(quiz)
        }
    }

    // MARK: Parts

    static func summary(_ quiz: QuizView) -> ScreenLine {
        let settings = quiz.settings
        let length = settings.sessionLength == .endless ? "endless" : "\(settings.sessionLength.rawValue) photos"
        return ScreenLine("  Quiz \(quiz.code) · \(settings.revealSpeed.rawValue) reveal · \(settings.timerDuration) s to guess · \(length)")
    }

    static func phaseLine(_ state: QuizScreenState, _ quiz: QuizView) -> ScreenLine {
        var line = ScreenLine("  ")
        let watching = state.me != nil && state.myPlayer == nil
        switch quiz.phase {
        case .waiting:
            let host = state.name(of: quiz.hostId)
            let counts = "\(counted(quiz.players.count, "player")) · \(counted(quiz.uploadCount, "photo")) in \(counted(quiz.albums.count, "album"))"
            let waiting = state.isHost ? "You start the quiz: type /start and press Enter." : "Waiting for \(host) to start."
            line.append("\(counts) · " + waiting, .bold)
        case .revealing:
            guard let photo = quiz.currentPhoto else { break }
            let owner = photo.uploadedBy == state.me ? "your photo" : "\(state.name(of: photo.uploadedBy))'s photo"
            line.append("\(photoNumber(quiz)) · \(owner) · \(photo.revealedTiles.count) of 36 tiles · ", .bold)
            let left = state.millisecondsLeft ?? 0
            line.append("\(Countdown.text(left)) to guess", Countdown.seconds(left) <= Countdown.hurrySeconds ? .warning : .bold)
        case .revealed:
            let place = quiz.answer.map { answer in
                answer.isOffline ? "somewhere without a name" : [answer.city, answer.country].compactMap { $0 }.joined(separator: ", ")
            } ?? ""
            line.append("\(photoNumber(quiz)) · \(place) · \(quiz.answer?.displayDate ?? "")", .good)
        default:
            line.append("The quiz is over.", .bold)
        }
        if watching { line.append(" · you are watching", .dim) }
        return line
    }

    /// "1 photo", "2 photos".
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    static func photoNumber(_ quiz: QuizView) -> String {
        let index = (quiz.photoIndex ?? 0) + 1
        return quiz.settings.sessionLength == .endless ? "Photo \(index)" : "Photo \(index) of \(quiz.photoCount)"
    }

    /// Who has guessed, and what this terminal guessed.
    static func guessedLine(_ state: QuizScreenState, _ quiz: QuizView) -> [ScreenLine] {
        var line = ScreenLine("  ")
        for (index, player) in quiz.players.enumerated() {
            if index > 0 { line.append("  ") }
            let mark = player.id == quiz.currentPhoto?.uploadedBy ? "·" : player.hasGuessed ? "✓" : "…"
            line.append("\(mark) ", player.hasGuessed ? .good : .plain)
            line.spans += PresenceDot.prefix(player.id, in: state.presence)
            line.append("\(player.name) \(player.score)", player.hasGuessed ? .good : .plain)
        }
        guard let guess = state.myGuessText else { return ["", line] }
        return ["", line, ScreenLine("  Your guess: \(guess)", .dim)]
    }

    /// The answer's position, then every guess with its distance and points.
    static func answerLines(_ state: QuizScreenState, _ quiz: QuizView) -> [ScreenLine] {
        guard let answer = quiz.answer else { return [] }
        var lines: [ScreenLine] = ["", ScreenLine("  Taken at \(position(answer.coordinate.latitude, answer.coordinate.longitude))")]
        let guesses = quiz.guesses ?? []
        let nameWidth = min(quiz.players.map { TextWidth.of($0.name) }.max() ?? 0, 20)
        for guess in guesses {
            let name = TextWidth.fit(state.name(of: guess.playerId), width: nameWidth)
            let padded = name + String(repeating: " ", count: max(nameWidth - TextWidth.of(name), 0))
            let distance = guess.distanceKm < 10 ? String(format: "%.2f km", guess.distanceKm) : String(format: "%.0f km", guess.distanceKm)
            let mine = guess.playerId == state.me
            lines.append(ScreenLine("  \(padded)  \(distance) away · \(guess.points) points\(mine ? " (you)" : "")", mine ? .bold : .plain))
        }
        if guesses.isEmpty { lines.append(ScreenLine("  Nobody guessed.", .dim)) }
        let scores = quiz.players.map { "\($0.name) \($0.score)" }.joined(separator: " · ")
        lines.append(ScreenLine("  Scores: " + scores, .dim))
        return lines
    }

    static func standingLines(_ quiz: QuizView) -> [ScreenLine] {
        [""] + (quiz.standings ?? []).map { standing in
            ScreenLine("  \(standing.rank). \(standing.name) · \(standing.score) points", standing.rank == 1 ? .good : .plain)
        }
    }

    static func position(_ latitude: Double, _ longitude: Double) -> String {
        String(format: "%.4f", abs(latitude)) + (latitude < 0 ? "°S, " : "°N, ") + String(format: "%.4f", abs(longitude)) + (longitude < 0 ? "°W" : "°E")
    }

    static func label(_ player: QuizView.Player, _ quiz: QuizView, _ state: QuizScreenState) -> String {
        let notes = [player.id == quiz.hostId ? "host" : nil, player.id == state.me ? "you" : nil].compactMap { $0 }
        return notes.isEmpty ? player.name : "\(player.name) (\(notes.joined(separator: ", ")))"
    }

    static func messageLine(_ state: QuizScreenState) -> ScreenLine {
        guard let message = state.message else { return "" }
        return ScreenLine("  " + (message.isError ? "✗ " : "") + message.text, message.isError ? .bad : .plain)
    }

    static func inputLine(_ state: QuizScreenState, width: Int) -> ScreenLine {
        let prompt = state.mayGuess ? "  where? > " : "  > "
        var line = ScreenLine(prompt, .bold)
        line.append(TextWidth.fit(state.input, width: max(width - TextWidth.of(prompt) - 1, 1)))
        line.append("▏", .highlight)
        return line
    }

    static func keysLine(_ state: QuizScreenState, width: Int = .max) -> ScreenLine {
        var keys: [(String, String)] = []
        if let quiz = state.quiz, !state.deleted {
            if state.mayGuess { keys.append(("Enter", "guess: lat, lon or a place")) }
            if state.isHost {
                switch quiz.phase {
                case .waiting: keys.append(("/start", "start"))
                case .revealing: keys.append(("/reveal", "reveal now"))
                case .revealed:
                    let last = quiz.settings.sessionLength != .endless && (quiz.photoIndex ?? 0) + 1 >= quiz.photoCount
                    keys.append(("/next", last ? "standings" : "next photo"))
                default: break
                }
                if quiz.phase == .revealing || quiz.phase == .revealed { keys.append(("/end", "end")) }
            }
            if state.isHost && quiz.phase == .complete && quiz.rematch == nil { keys.append(("/rematch", "rematch")) }
            if state.myPlayer != nil && quiz.phase != .complete { keys.append(("/leave", "leave")) }
        }
        keys.append(("Esc", "quit"))
        return KeysLine.line(keys, width: width)
    }
}
