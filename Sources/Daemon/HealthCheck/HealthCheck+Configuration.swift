import SystemSupport

extension HealthCheck {
    /// The configuration file, parsed with the daemon's own parser: its problems as the daemon
    /// would report them (`file:line: message`), and the configuration the other items use.
    func checkConfiguration() -> (Configuration, HealthVerdict) {
        let path = configPath ?? Self.defaultConfigPath
        do throws(ConfigurationError) {
            let configuration = try Configuration.load(path: path)
            return (configuration, HealthVerdict(item: "config", outcome: .ok, detail: path))
        } catch {
            switch error {
            case .missing where configPath == nil:
                return (
                    Configuration(),
                    HealthVerdict(item: "config", outcome: .ok, detail: "no \(path); the compiled-in defaults apply")
                )
            case .invalid(let problems) where !problems.isEmpty:
                let first = problems[0]
                var notes = problems.dropFirst().map(\.description)
                notes.append("the checks below use the compiled-in defaults")
                return (
                    Configuration(),
                    HealthVerdict(
                        item: "config", outcome: .failed, detail: first.description,
                        fix: "correct the file; config/waypointd.conf documents every key", notes: notes)
                )
            default:
                return (
                    Configuration(),
                    HealthVerdict(
                        item: "config", outcome: .failed, detail: error.description,
                        fix: "install one (make install does) or pass --config PATH",
                        notes: ["the checks below use the compiled-in defaults"])
                )
            }
        }
    }

    /// The state directory: writable by this user if it exists. A missing one is fine, because
    /// systemd (`StateDirectory=waypointd`) or the daemon makes it; the check does not.
    func checkStateDirectory(_ directory: String) -> HealthVerdict {
        do throws(Errno) {
            guard try FileSystem.kind(of: directory) != nil else {
                return HealthVerdict(
                    item: "state", outcome: .ok,
                    detail: "\(directory) does not exist yet; systemd's StateDirectory=waypointd (or the daemon) creates it"
                )
            }
        } catch {
            // A parent that may not be searched, or is a file: the daemon could not use it either.
            return stateFailure(.cannotExamineDirectory(path: directory, error), directory: directory)
        }
        do throws(StateStoreError) {
            _ = try StateStore(directory: directory)
            return HealthVerdict(item: "state", outcome: .ok, detail: "\(directory) writable")
        } catch {
            return stateFailure(error, directory: directory)
        }
    }

    private func stateFailure(_ error: StateStoreError, directory: String) -> HealthVerdict {
        let fix: String
        switch error {
        case .notADirectory, .cannotExamineDirectory(_, .notDirectory):
            fix = "remove what is there, or set state-dir to a directory"
        default:
            fix = "the service gets it from StateDirectory=waypointd; by hand: chown waypoint: \(directory)"
        }
        return HealthVerdict(item: "state", outcome: .failed, detail: error.description, fix: fix)
    }
}
