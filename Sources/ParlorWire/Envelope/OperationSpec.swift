/// How requests of one operation name are read into an `Operation`: what a game's wire file registers
/// for each operation it declares, and what `Operation.registry` is made of.
struct OperationSpec: Sendable {
    let name: OperationName
    let choice: ArgumentsChoice<Operation>

    /// An operation whose arguments are required.
    init<Arguments: OperationArguments>(_ name: OperationName, _ type: Arguments.Type) {
        self.name = name
        choice = .one(.reading(type) { Operation(name, $0) })
    }

    /// An operation whose arguments are all optional, so `args` may be left out.
    init<Arguments: OperationArguments & DefaultArguments>(_ name: OperationName, _ type: Arguments.Type) {
        self.name = name
        choice = .one(.reading(type) { Operation(name, $0) })
    }
}
