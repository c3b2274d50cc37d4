import ArgumentParser
import Foundation
import ParlorClient
import ParlorPlaces
import ParlorRules
import ParlorWire

/// Photo quizzes, under `parlor quiz`.
enum QuizCommands: GameCommands {
    static let title = "photo quizzes"
    static let summary = "parlor quiz create / join CODE / watch CODE / upload CODE FILE… play a photo quiz; see parlor help quiz."
    static let commands: [any ParsableCommand.Type] = [Quiz.self]
    static let codes = CodeShape(QuizCode.self, owner: "a photo quiz", shape: "5 letters", example: "QWERT", join: ["parlor", "quiz", "join"])

    /// Names typed as guesses are looked up in the default places file (`parlor quiz watch --places` reads another).
    static func watch(code: String, options: ClientOptions) async throws {
        try await GameSession<QuizGame>.run(options, .watch(code: code, places: PlaceLookup(path: Places.defaultPath)))
    }

    /// The quiz as it was then: the photo as far as it had filled in, the countdown as it stood at the
    /// step, and the answer only from its reveal on.
    static let replay: ReplayDrawing? = ReplayDrawing { frame, width, rows in
        guard let quiz = frame.view.decoded(as: QuizView.self) else { return nil }
        let state = QuizScreenState(server: frame.server, code: frame.code, quiz: quiz, me: frame.me, now: frame.at)
        return QuizScreen.body(state, width: width, rows: rows)
    }
}

/// `parlor quiz …`: "where was this taken?" Friends upload photos with a GPS position; the server reveals
/// each tile by tile while a guess timer runs, and everyone guesses where it was taken.
public struct Quiz: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Play a photo quiz: guess where each photo was taken as its tiles appear.",
        discussion: """
            create, join and watch show the quiz full screen on a terminal: the photo fills in as its tiles \
            appear (drawn in true colour), with the time left to guess. Type a guess — a position \
            (48.85, 2.35) or a place's name (Lyon; Kyoto, JP), looked up in GeoNames' places (--places) — \
            and press Enter; a second guess replaces the first until the reveal. The host types /start, \
            /reveal, /next and /end; /leave gives up your seat, Esc or Ctrl-C closes the terminal and keeps \
            it. upload CODE FILE… adds JPEG photos (with a GPS position) before the start. Without a \
            terminal (or with --json) create, join and watch print one JSON object per line and read \
            commands from stdin: guess WHERE, start, reveal, next, end, leave, quiz, quit.
            """,
        subcommands: [QuizCreate.self, QuizJoin.self, QuizWatch.self, QuizUpload.self])

    public init() {}
}

/// Where guesses typed as names are looked up: the same places file the server reads.
public struct PlacesOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "GeoNames' places (cities1000) to look typed place names up in; none to guess by position only.", valueName: "file"))
    public var places: String = Places.defaultPath

    public init() {}

    /// Starts reading the places in the background.
    func lookup() -> PlaceLookup { PlaceLookup(path: places == "none" ? nil : places) }
}

/// `parlor quiz create`: a new quiz with you as host, then the quiz screen.
public struct QuizCreate: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a photo quiz; you host it.",
        discussion: "Settings left out are your saved defaults (or medium, 30 seconds, 10 photos).")

    @Option(name: .customLong("reveal-speed"), help: ArgumentHelp("How fast the 36 tiles appear: slow (15 s), medium (10 s) or fast (5 s).", valueName: "speed"))
    public var revealSpeed: String?

    @Option(help: ArgumentHelp(
        "Seconds to guess each photo (\(QuizLimits.timerDurations.lowerBound)–\(QuizLimits.timerDurations.upperBound)).", valueName: "seconds"))
    public var timer: Int?

    @Option(help: ArgumentHelp("Photos a session plays: 5, 10, 20 or endless.", valueName: "length"))
    public var length: String?

    @Option(help: ArgumentHelp("Play only this album (repeat for more); all albums by default.", valueName: "name"))
    public var album: [String] = []

    @Option(help: ArgumentHelp("Your name in the quiz.", valueName: "name"))
    public var name: String = DefaultName.current

    @OptionGroup public var places: PlacesOption
    @OptionGroup public var options: ClientOptions

    public init() {}

    var settings: QuizSettingsFields {
        QuizSettingsFields(revealSpeed: revealSpeed, timerDuration: timer, sessionLength: length, albums: album.isEmpty ? nil : album)
    }

    public func validate() throws {
        if let revealSpeed { try Validation.oneOf(revealSpeed, RevealSpeed.self, option: "--reveal-speed") }
        if let timer { try Validation.range(timer, QuizLimits.timerDurations, option: "--timer") }
        if let length { try Validation.oneOf(length, SessionLength.self, option: "--length") }
        do throws(PhotoQuizError) {
            _ = try settings.applied(to: QuizSettings())
        } catch {
            throw ValidationError(error.message)
        }
        try Validation.playerName(name, max: QuizLimits.nameMaxCharacters)
    }

    public func run() async throws {
        let arguments = CreateQuizArguments(playerName: name, settings: settings)
        try await GameSession<QuizGame>.run(options, .create(arguments, places: places.lookup()))
    }
}

/// `parlor quiz join CODE`: a seat in a quiz (or back to yours), then the quiz screen.
public struct QuizJoin: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a photo quiz by its code (or come back to your seat in it).")

    @Argument(help: ArgumentHelp("The quiz's 5-character code.", valueName: "code"))
    public var code: String

    @Option(help: ArgumentHelp("Your name in the quiz.", valueName: "name"))
    public var name: String = DefaultName.current

    @OptionGroup public var places: PlacesOption
    @OptionGroup public var options: ClientOptions

    public init() {}

    public mutating func validate() throws {
        code = try Validation.code(code, as: QuizCode.self)
        try Validation.playerName(name, max: QuizLimits.nameMaxCharacters)
    }

    public func run() async throws {
        try await GameSession<QuizGame>.run(options, .join(code: code, playerName: name, places: places.lookup()))
    }
}

/// `parlor quiz watch CODE`: the quiz without taking a seat.
public struct QuizWatch: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Watch a photo quiz as a spectator.",
        discussion: "If you have a seat in the quiz (or host it), your typing still works.")

    @Argument(help: ArgumentHelp("The quiz's 5-character code.", valueName: "code"))
    public var code: String

    @OptionGroup public var places: PlacesOption
    @OptionGroup public var options: ClientOptions

    public init() {}

    public mutating func validate() throws {
        code = try Validation.code(code, as: QuizCode.self)
    }

    public func run() async throws {
        try await GameSession<QuizGame>.run(options, .watch(code: code, places: places.lookup()))
    }
}

/// `parlor quiz upload CODE FILE…`: photos into a quiz you are in, before it starts.
public struct QuizUpload: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload JPEG photos with a GPS position to a photo quiz before it starts.",
        discussion: "The server answers each with its id, album and date; where it was taken stays secret until its reveal.")

    @Argument(help: ArgumentHelp("The quiz's 5-character code.", valueName: "code"))
    public var code: String

    @Argument(help: ArgumentHelp("JPEG files (at most 15 MiB each).", valueName: "file"))
    public var files: [String] = []

    @Option(help: ArgumentHelp("The album the photos go into (default: Photos).", valueName: "name"))
    public var album: String?

    @OptionGroup public var options: ClientOptions

    public init() {}

    /// Larger files are refused before anything is sent (the server's limit).
    static let maxFileBytes = 15 * 1024 * 1024

    public mutating func validate() throws {
        code = try Validation.code(code, as: QuizCode.self)
        guard !files.isEmpty else { throw ValidationError("Name at least one JPEG file to upload.") }
        for file in files {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file), let size = (attributes[.size] as? NSNumber)?.intValue else {
                throw ValidationError("Cannot read \(file).")
            }
            guard size <= Self.maxFileBytes else { throw ValidationError("\(file) is over 15 MiB (\(size) bytes).") }
        }
    }

    public func run() async throws {
        let (code, files, album) = (code, files, album)
        try await OneShot.run(options) { client throws(ParlorClientError) in
            var uploaded: [UploadedPhoto] = []
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw .invalidConfiguration("Cannot read \(file).")
                }
                do throws(ParlorClientError) {
                    let result = try await client.uploadPhoto(code: code, jpeg: [UInt8](data), album: album)
                    uploaded.append(UploadedPhoto(file: file, photoId: result.photoId, album: result.album, takenAt: result.takenAt))
                } catch {
                    throw Self.naming(file, error, after: uploaded)
                }
            }
            let sentences = uploaded.map { "Uploaded \($0.file) to quiz \(code) (album \($0.album))." }
            return OneShot.Outcome(jsonLine: JSONLine.encode(UploadLine(code: code, photos: uploaded)), sentence: sentences.joined(separator: "\n"))
        }
    }

    /// The error with the file it was about, and what had gone up before it.
    static func naming(_ file: String, _ error: ParlorClientError, after uploaded: [UploadedPhoto]) -> ParlorClientError {
        let before = uploaded.isEmpty ? "" : " (\(uploaded.map(\.file).joined(separator: ", ")) went up before it)"
        guard case .server(let code, let status, let message) = error else { return .invalidConfiguration("\(file): \(error.description)\(before)") }
        return .server(code: code, status: status, message: "\(file): \(message)\(before)")
    }

    struct UploadedPhoto: Encodable {
        let file: String
        let photoId: String
        let album: String
        let takenAt: String?
    }

    /// `{"code":…,"event":"uploaded","photos":[{file, photoId, album, takenAt}]}`.
    struct UploadLine: Encodable {
        let event = "uploaded"
        let code: String
        let photos: [UploadedPhoto]
    }
}
