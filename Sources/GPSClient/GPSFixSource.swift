/// Something that produces GPS fixes: gpsd through libgps in production, a simulated receiver
/// in `--simulate` and in tests.
public protocol GPSFixSource: Sendable {
    /// Starts producing events; the stream ends when the consumer stops iterating it (the
    /// source then releases its connection).
    func events() -> AsyncStream<GPSEvent>
}
