import ArgumentParser
import ParlorClient

/// The shape of every one-shot command: connect, do one thing, print it, exit.
enum OneShot {
    struct Outcome {
        /// What `--json` (or output that is not a terminal) prints.
        var jsonLine: String
        var sentence: String

        init(jsonLine: String, sentence: String) {
            self.jsonLine = jsonLine
            self.sentence = sentence
        }
    }

    static func run(
        _ options: ClientOptions, _ body: (ParlorClient) async throws(ParlorClientError) -> Outcome
    ) async throws {
        let client = try options.makeClient()
        let result = await client.whileConnected { _ -> Result<Outcome, ParlorClientError> in
            do throws(ParlorClientError) {
                return .success(try await body(client))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let outcome):
            StandardStreams.printLine(options.printsText ? outcome.sentence : outcome.jsonLine)
        case .failure(let error):
            StandardStreams.printError(error.description)
            throw ExitCode.failure
        }
    }
}
