// ParlorWire: the wire contract (envelopes, operations, results, events, error codes).
