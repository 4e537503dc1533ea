# Unit tests: one process, no launcher; they may include runtime internals.
