// ParlorRules: the games as pure values. No I/O, no clock reads, no unseeded randomness, no concurrency.
