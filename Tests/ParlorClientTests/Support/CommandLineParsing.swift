import ArgumentParser
import ParlorTerminal
import Testing

/// Parses `arguments` as the `parlor` command line and returns the command, which must be a `Command`.
func parse<Command: ParsableCommand>(_ arguments: [String], as type: Command.Type) throws -> Command {
    let parsed = try ParlorCommand.parseAsRoot(arguments)
    guard let command = parsed as? Command else {
        Issue.record("\(arguments) parsed as \(Swift.type(of: parsed)), not \(Command.self)")
        throw CancellationError()
    }
    return command
}

/// The message a person sees for `arguments`, or nil if they parse.
func complaint(_ arguments: [String]) -> String? {
    do {
        _ = try ParlorCommand.parseAsRoot(arguments)
        return nil
    } catch {
        return ParlorCommand.message(for: error)
    }
}
