import ArgumentParser
import Foundation
import Logging
import ParlorServer

/// `parlor-server verify-records`: replays every game record of a data directory through the rules.
struct VerifyRecordsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-records",
        abstract: "Replay every game record in --data-dir and report the first step where one parts from its game.",
        discussion: """
            Each record (a game's initial state and every action applied to it) is played again through the \
            rules this build runs, with the word list given by --word-list as the server reads it. Every step \
            must be applied and reach the version it recorded, and the game must come out as stored (the live \
            game, and the finished game as history filed it). Exits 1 when any record diverges, printing its \
            game's kind and code and the step. Run it on a stopped server's directory, or a copy.
            """)

    @OptionGroup var storage: DataDirectoryOption

    @Option(help: "The English word list the server checks words against (one word per line).")
    var wordList: String = WordListSource.defaultPath

    func run() async throws {
        var logger = Logger(label: "parlor.verify-records")
        logger.logLevel = .warning
        var configuration = ServerConfiguration()
        configuration.dataDirectory = storage.dataDir
        configuration.wordGames.wordList = .file(wordList)
        let report: GameRecordVerification.Report
        do {
            report = try await GameRecordVerification.run(configuration: configuration, logger: logger)
        } catch {
            FileHandle.standardError.write(Data("parlor-server verify-records: \(error)\n".utf8))
            throw ExitCode(2)
        }
        for divergence in report.divergences {
            print(divergence)
        }
        print("Replayed \(report.checked) records (\(report.steps) steps): \(report.divergences.count) diverge.")
        if !report.divergences.isEmpty { throw ExitCode(1) }
    }
}
