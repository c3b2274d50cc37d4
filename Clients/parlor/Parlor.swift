import ParlorTerminal

/// The `parlor` executable: everything lives in ParlorTerminal, where it can be tested.
@main
extension ParlorCommand {}
