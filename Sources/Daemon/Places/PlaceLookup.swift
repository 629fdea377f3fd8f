import ControlProtocol
import Geodesy
import PlaceIndex
import Synchronization
import SystemSupport

/// The daemon's side of the place index: answers `search` and `where` from
/// `places.sqlite` in the state directory, opened read-only when first asked and opened again
/// when an import has put a new file in its place (checked by inode at each query: one stat).
public final class PlaceLookup: Sendable {
    /// The index file.
    public let path: String
    /// The reader in use and the inode it was opened from.
    private let opened = Mutex<(reader: PlaceIndexReader, inode: UInt64, modified: Double)?>(nil)

    public init(stateDirectory: String) {
        path = stateDirectory + "/" + MapImport.fileName
    }

    /// The reader for the file as it is now, or why there is none.
    func reader() -> Result<PlaceIndexReader, ControlError> {
        guard let (inode, modified) = stamp() else {
            opened.withLock { $0 = nil }
            return .failure(ControlError(.notFound, "no map is loaded; import one: waypointd map import FILE.osm.pbf"))
        }
        return opened.withLock { current in
            if let current, current.inode == inode, current.modified == modified { return .success(current.reader) }
            do throws(PlaceIndexError) {
                let reader = try PlaceIndexReader(path: path)
                current = (reader, inode, modified)
                return .success(reader)
            } catch {
                current = nil
                return .failure(ControlError(.internal, "\(error)"))
            }
        }
    }

    /// The file's inode and modification time, when it can be looked at.
    private func stamp() -> (inode: UInt64, modified: Double)? {
        guard let status = try? FileSystem.status(of: path) else { return nil }
        return (status.inode, status.modificationSeconds)
    }

    /// The map's source and date for the last file seen, by its stamp.
    private let shown = Mutex<(inode: UInt64, modified: Double, map: StatusReport.Map?)?>(nil)

    /// What is loaded, for STATUS: the extract's name and date; nil without a map. One stat a
    /// call; the index's `meta` read again only when an import has replaced the file (the word
    /// list is not loaded for this: a daemon nobody searches keeps its memory).
    public func map() -> StatusReport.Map? {
        guard let stamp = stamp() else { return nil }
        return shown.withLock { shown in
            if let shown, shown.inode == stamp.inode, shown.modified == stamp.modified { return shown.map }
            let info = try? PlaceIndexReader.info(path: path)
            let map = info.map { StatusReport.Map(source: $0.source, timestamp: $0.timestamp) }
            shown = (stamp.inode, stamp.modified, map)
            return map
        }
    }

    /// The reply to `search`.
    public func search(_ query: String, near reference: Coordinate, limit: Int) -> ControlReply {
        switch reader() {
        case .failure(let error): return .error(error)
        case .success(let reader):
            do throws(PlaceIndexError) {
                let results = try reader.search(query, near: reference, limit: limit).map {
                    SearchReport.Result(
                        name: $0.name, kind: $0.kind, address: $0.address, latitude: $0.latitude, longitude: $0.longitude,
                        distanceMeters: DaemonReplies.tenths($0.distanceMeters), bearingDegrees: DaemonReplies.tenths($0.bearingDegrees),
                        operatorName: $0.operatorName, nearStreet: $0.nearStreet)
                }
                return .search(SearchReport(results: results, map: reader.info.source))
            } catch {
                return .error(ControlError(.internal, "\(error)"))
            }
        }
    }

    /// The reply to `where`.
    public func whereIs(_ point: Coordinate) -> ControlReply {
        switch reader() {
        case .failure(let error): return .error(error)
        case .success(let reader):
            do throws(PlaceIndexError) {
                guard let answer = try reader.whereIs(point) else {
                    return .whereAmI(
                        WhereReport(
                            address: nil, street: nil, housenumber: nil, place: nil, distanceMeters: nil, bearingDegrees: nil,
                            latitude: nil, longitude: nil))
                }
                return .whereAmI(
                    WhereReport(
                        address: answer.address, street: answer.street, housenumber: answer.housenumber, place: answer.place,
                        distanceMeters: DaemonReplies.tenths(answer.distanceMeters), bearingDegrees: DaemonReplies.tenths(answer.bearingDegrees),
                        latitude: (answer.latitude * 1e7).rounded() / 1e7, longitude: (answer.longitude * 1e7).rounded() / 1e7,
                        inside: answer.inside, insideKind: answer.insideKind))
            } catch {
                return .error(ControlError(.internal, "\(error)"))
            }
        }
    }
}
