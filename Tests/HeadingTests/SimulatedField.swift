import Foundation
import Heading

/// Earth's field in NED, microtesla, for a total intensity and inclination (north along x).
func earthField(microtesla: Double, inclinationDegrees: Double) -> Vector3 {
    let i = inclinationDegrees * .pi / 180
    return Vector3(microtesla * cos(i), 0, microtesla * sin(i))
}

/// The difference of two headings in degrees, in (−180, 180].
func headingError(_ a: Double, _ b: Double) -> Double {
    let d = (a - b).truncatingRemainder(dividingBy: 360)
    return d > 180 ? d - 360 : (d <= -180 ? d + 360 : d)
}
