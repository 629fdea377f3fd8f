// Daemon: config, supervisor, services, control server, persistence.
// This file only keeps the target in the build graph until issue 6 fills it.

/// Namespace for the `Daemon` target; see ../shared/DESIGN.md §2 for what it will own.
public enum DaemonModule {}
