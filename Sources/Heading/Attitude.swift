#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An orientation of the body in the local north-east-down frame, as yaw (heading), pitch and
/// roll applied in that order (aerospace ZYX). Used to simulate what the sensors see.
public struct Attitude: Sendable, Hashable {
    /// Clockwise from north, degrees.
    public var yawDegrees: Double
    /// Nose up, degrees.
    public var pitchDegrees: Double
    /// Right side down, degrees.
    public var rollDegrees: Double

    /// An attitude from its angles.
    public init(yawDegrees: Double, pitchDegrees: Double = 0, rollDegrees: Double = 0) {
        self.yawDegrees = yawDegrees
        self.pitchDegrees = pitchDegrees
        self.rollDegrees = rollDegrees
    }

    /// The rotation taking body-frame vectors into the NED frame.
    public var bodyToNED: Matrix3 {
        let (ψ, θ, φ) = (yawDegrees * .pi / 180, pitchDegrees * .pi / 180, rollDegrees * .pi / 180)
        let (cψ, sψ, cθ, sθ, cφ, sφ) = (cos(ψ), sin(ψ), cos(θ), sin(θ), cos(φ), sin(φ))
        return Matrix3(
            Vector3(cθ * cψ, sφ * sθ * cψ - cφ * sψ, cφ * sθ * cψ + sφ * sψ),
            Vector3(cθ * sψ, sφ * sθ * sψ + cφ * cψ, cφ * sθ * sψ - sφ * cψ),
            Vector3(-sθ, sφ * cθ, cφ * cθ))
    }

    /// A NED vector (Earth's field, gravity) as the body sees it.
    public func toBody(_ ned: Vector3) -> Vector3 { bodyToNED.transposed * ned }

    /// The specific force the accelerometer reads, g, for a linear acceleration in NED (g).
    public func specificForce(linearAccelerationG: Vector3 = .zero) -> Vector3 {
        toBody(linearAccelerationG - Vector3(0, 0, 1))
    }
}
