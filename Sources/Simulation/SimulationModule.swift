// Simulation: chip emulators, the walker and the simulated fix source.
// This file only keeps the target in the build graph until issue 4 fills it.

/// Namespace for the `Simulation` target; see ../shared/DESIGN.md §2 for what it will own.
public enum SimulationModule {}
