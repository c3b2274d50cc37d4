import ArgumentParser
import ParlorClient

extension ClientOptions {
    /// The client these options describe. An option the client cannot use (a bad `--server`, an
    /// unreadable profile) is printed as a sentence on stderr and ends the command with status 1.
    func makeClient() throws -> ParlorClient {
        do throws(ParlorClientError) {
            return ParlorClient(configuration: try configuration())
        } catch {
            StandardStreams.printError(error.description)
            throw ExitCode.failure
        }
    }
}

extension ParlorClient {
    /// Keeps the client connected (it reconnects by itself) while `body` runs, then closes it and
    /// cancels whatever `body` left running in `group`, the task group the client runs in.
    func whileConnected<Value: Sendable>(_ body: (_ group: inout TaskGroup<Void>) async -> Value) async -> Value {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do throws(ParlorClientError) {
                    try await self.run()
                } catch {
                    // Out of reconnect attempts: requests fail and say so.
                }
            }
            let result = await body(&group)
            await close()
            group.cancelAll()
            return result
        }
    }
}
