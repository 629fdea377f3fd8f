import Simulation

/// A seeded random number generator so randomised tests are repeatable: the simulation's own.
public typealias SeededGenerator = SplitMix64
