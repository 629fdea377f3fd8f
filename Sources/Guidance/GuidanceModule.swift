// Guidance: the navigator state machine and the haptic cue.
// This file only keeps the target in the build graph until issue 6 fills it.

/// Namespace for the `Guidance` target; see ../shared/DESIGN.md §2 for what it will own.
public enum GuidanceModule {}
