import SystemSupport

extension StateStore {
    /// What loading found besides the state itself: damaged files set aside, files that could
    /// not be read, leftovers of interrupted saves. The daemon logs each entry at startup and
    /// shows them in `status`; an empty report means every file was either absent or good.
    public struct LoadReport: Sendable, Hashable, CustomStringConvertible {
        /// One finding.
        public enum Entry: Sendable, Hashable, CustomStringConvertible {
            /// A damaged file was renamed to `corruptPath` (replacing an older damaged copy); the
            /// item starts from its default.
            case setAside(path: String, corruptPath: String, defect: StateFileDefect)
            /// A damaged file could not be renamed; the item starts from its default, and the next
            /// save of that item replaces the file.
            case notSetAside(path: String, defect: StateFileDefect, Errno)
            /// A file could not be read (e.g. `EIO`, `EACCES`); it
            /// is left where it is, and the item starts from its default.
            case unreadable(path: String, Errno)
            /// A temporary file left by a save that was interrupted (a crash, a power cut) was
            /// removed; the file it was meant to replace is intact.
            case removedLeftover(path: String)
            /// A temporary file left by an interrupted save could not be removed.
            case leftoverNotRemoved(path: String, Errno)
            /// After moving or removing files, syncing the directory failed: a power cut now may
            /// bring a damaged file or a leftover back, to be handled again at the next start.
            case directoryNotSynced(path: String, Errno)

            /// The file the entry is about.
            public var path: String {
                switch self {
                case .setAside(let path, _, _), .notSetAside(let path, _, _), .unreadable(let path, _),
                    .removedLeftover(let path), .leftoverNotRemoved(let path, _), .directoryNotSynced(let path, _):
                    return path
                }
            }

            /// Whether the entry means a saved item was lost or could not be used (as opposed to
            /// housekeeping).
            public var isProblem: Bool {
                switch self {
                case .setAside, .notSetAside, .unreadable: return true
                case .removedLeftover, .leftoverNotRemoved, .directoryNotSynced: return false
                }
            }

            public var description: String {
                switch self {
                case .setAside(let path, let corruptPath, let defect):
                    return "\(path): \(defect); moved aside to \(corruptPath), starting without it"
                case .notSetAside(let path, let defect, let error):
                    return "\(path): \(defect); could not move it aside (\(error)), starting without it"
                case .unreadable(let path, let error):
                    return "\(path): cannot read: \(error); starting without it"
                case .removedLeftover(let path):
                    return "\(path): removed, left by an interrupted save"
                case .leftoverNotRemoved(let path, let error):
                    return "\(path): left by an interrupted save, cannot remove: \(error)"
                case .directoryNotSynced(let path, let error):
                    return "\(path): cannot sync the directory: \(error)"
                }
            }
        }

        /// The findings, in the order the files were read.
        public var entries: [Entry]

        /// A report from its entries.
        public init(entries: [Entry] = []) { self.entries = entries }

        /// Whether there is nothing to report.
        public var isClean: Bool { entries.isEmpty }

        /// The damaged files found (moved aside or not), with what was wrong.
        public var damagedFiles: [(path: String, defect: StateFileDefect)] {
            entries.compactMap { entry in
                switch entry {
                case .setAside(let path, _, let defect), .notSetAside(let path, let defect, _): return (path, defect)
                default: return nil
                }
            }
        }

        /// One finding a line.
        public var description: String {
            entries.isEmpty ? "state loaded, nothing to report" : entries.map(\.description).joined(separator: "\n")
        }
    }
}
