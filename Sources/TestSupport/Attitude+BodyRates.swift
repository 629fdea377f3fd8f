import Foundation
import Heading

extension Attitude {
    /// The body rates, °/s, that turn `self` into `next` in `seconds` (from the relative
    /// rotation's axis and angle): what an ideal gyroscope reads between two simulated attitudes.
    public func bodyRates(to next: Attitude, seconds: Double) -> Vector3 {
        let relative = bodyToNED.transposed * next.bodyToNED
        let trace = relative[0, 0] + relative[1, 1] + relative[2, 2]
        let angle = acos(max(-1, min(1, (trace - 1) / 2)))
        guard angle > 1e-12 else { return .zero }
        let axis =
            Vector3(
                relative[2, 1] - relative[1, 2], relative[0, 2] - relative[2, 0], relative[1, 0] - relative[0, 1]
            ) / (2 * sin(angle))
        return axis * (angle * 180 / .pi / seconds)
    }
}
