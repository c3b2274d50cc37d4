// ParlorTerminal: the `parlor` terminal client (commands, rendering, the interactive view).
