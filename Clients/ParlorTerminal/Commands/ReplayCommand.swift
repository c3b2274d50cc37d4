import ArgumentParser
import Dispatch
import ParlorClient
import ParlorRules
import ParlorWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `parlor replay CODE`: a finished game again, step by step, on its own screen.
public struct Replay: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        abstract: "Replay a finished game step by step; its code says which game.",
        discussion: """
            Shows the game's screen as you saw it then, from its start: ← and → move a step, Home and End \
            go to the start and the end, space plays the game at the pace it was played (pauses of more \
            than 3 seconds shortened), x plays it four times as fast, q quits. The top line says the \
            step, its time (UTC) and who took it. With --step N, or when not on a terminal, the screen \
            after step N (the last unless told; 0 is the start) is printed once.
            """)

    @Argument(help: ArgumentHelp("The game's code, as parlor history lists it.", valueName: "code"))
    public var code: String

    @Option(help: ArgumentHelp("Print the screen after this step (0: the start) and exit.", valueName: "n"))
    public var step: Int?

    @OptionGroup public var options: ClientOptions

    public init() {}

    public mutating func validate() throws {
        guard let (_, code) = ParlorCommand.game(ofCode: code) else { throw ValidationError(Watch.notACode(code)) }
        self.code = code
        if let step, step < 0 { throw ValidationError("--step must be 0 (the start) or a step number (got \(step)).") }
    }

    public func run() async throws {
        guard let (game, code) = ParlorCommand.game(ofCode: code) else { throw ValidationError(Watch.notACode(code)) }
        let client = try options.makeClient()
        let result = await client.whileConnected { _ -> Result<GameRecord, ParlorClientError> in
            do throws(ParlorClientError) {
                return .success(try await client.wholeGameRecord(code: code))
            } catch {
                return .failure(error)
            }
        }
        let record: GameRecord
        switch result {
        case .success(let read): record = read
        case .failure(let error):
            StandardStreams.printError(error.description)
            throw ExitCode.failure
        }
        let server = client.server.url
        if step != nil || !options.isInteractive {
            let player = ReplayPlayer(record: record, position: step ?? record.steps.count)
            let size = TerminalDevice.isOutputTerminal ? TerminalDevice.size() : (width: 80, height: 24)
            let lines = ReplayScreen.text(player, drawing: game.replay, server: server, me: client.userId, width: size.width, height: size.height)
            StandardStreams.printLine(lines.map { $0.trimmingTrailingSpaces }.joined(separator: "\n"))
            return
        }
        var replay = ReplayRun(player: ReplayPlayer(record: record), drawing: game.replay, server: server, me: client.userId)
        await replay.run()
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// The interactive replay: the full screen, keys and the play timer, until `q`.
private struct ReplayRun {
    enum Event: Sendable {
        case key(Key)
        /// The timer for the step shown at `position` ran out.
        case advance(position: Int)
        case resize
        case quit
    }

    var player: ReplayPlayer
    let drawing: ReplayDrawing?
    let server: String
    let me: UserID?

    mutating func run() async {
        let (events, sink) = AsyncStream.makeStream(of: Event.self)
        guard TerminalDevice.enterFullScreen() else { return }
        InputSources.readKeys { keys in
            guard let keys else {
                sink.yield(.quit)
                return
            }
            for key in keys { sink.yield(.key(key)) }
        }
        let signals = InputSources.watchSignals([SIGINT, SIGTERM, SIGHUP, SIGWINCH]) { number in
            sink.yield(number == SIGWINCH ? .resize : .quit)
        }
        defer { signals.forEach { $0.cancel() } }
        var timer: Task<Void, Never>?
        draw()
        loop: for await event in events {
            switch event {
            case .key(let key):
                switch player.press(key) {
                case .quit: break loop
                case .nothing: continue
                case .redraw: break
                }
            case .advance(let position):
                guard position == player.position else { continue }
                player.advance()
            case .resize: break
            case .quit: break loop
            }
            draw()
            timer?.cancel()
            if let delay = player.delayToNext {
                let position = player.position
                timer = Task {
                    try? await Task.sleep(for: delay)
                    if !Task.isCancelled { sink.yield(.advance(position: position)) }
                }
            }
        }
        timer?.cancel()
        sink.finish()
        TerminalDevice.restore()
    }

    private func draw() {
        let size = TerminalDevice.size()
        StandardStreams.write(ANSI.frame(ReplayScreen.render(player, drawing: drawing, server: server, me: me, width: size.width, height: size.height)))
    }
}
