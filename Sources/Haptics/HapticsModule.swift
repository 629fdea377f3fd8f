// Haptics: the PWM channel, the sysfs implementation and the ERM renderer.
// This file only keeps the target in the build graph until issue 5 fills it.

/// Namespace for the `Haptics` target; see ../shared/DESIGN.md §2 for what it will own.
public enum HapticsModule {}
