// Heading: calibration, tilt compensation, circular filter, course assist.
// This file only keeps the target in the build graph until issue 4 fills it.

/// Namespace for the `Heading` target; see ../shared/DESIGN.md §2 for what it will own.
public enum HeadingModule {}
