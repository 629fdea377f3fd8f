import ControlProtocol
import Geodesy
import Heading

// Calibration: collect the magnetometer's samples while the wearer turns the device, fit the
// hard- and soft-iron correction scaled to WMM2025's field here, and keep it.

extension DaemonState {
    /// `calibrate`.
    ///
    /// - Parameter utcSeconds: The wall-clock time, for a calibration's `created` date.
    mutating func calibrate(_ action: CalibrationAction, at seconds: Double, utcSeconds: Int64) -> Outcome {
        switch action {
        case .status:
            return .answer(.calibration(nil))
        case .start:
            guard calibrationFit == nil else { return .answer(.calibration(.alreadyCollecting)) }
            calibrationFit = CalibrationFit()
            var effects: [Effect] = [.calibratingChanged(true)]
            effects += applyMute(at: seconds)
            effects.append(.log(.info, "calibration started", [:]))
            return Outcome(effects: effects, reply: .success(.calibration(.started)))
        case .cancel:
            guard calibrationFit != nil else { return .refused(.notCalibrating) }
            var effects = endCalibration(at: seconds)
            effects.append(.log(.info, "calibration cancelled", [:]))
            return Outcome(effects: effects, reply: .success(.calibration(.cancelled)))
        case .finish:
            return finishCalibration(at: seconds, utcSeconds: utcSeconds)
        case .reset:
            var effects = calibrationFit != nil ? endCalibration(at: seconds) : []
            calibration = .none
            effects += handle(.calibration(nil), at: seconds)
            effects += [.log(.notice, "calibration reset", [:]), .save(.calibration)]
            return Outcome(effects: effects, reply: .success(.calibration(.reset)), done: "reset")
        }
    }

    private mutating func finishCalibration(at seconds: Double, utcSeconds: Int64) -> Outcome {
        guard let fit = calibrationFit else { return .refused(.notCalibrating) }
        guard let referenceField = pipeline.modelFieldMicrotesla else { return .refused(.noDatedFix) }
        let result: (calibration: MagneticCalibration, quality: CalibrationFit.Quality)
        do throws(CalibrationFit.Refusal) {
            result = try fit.fit(referenceFieldMicrotesla: referenceField, inclinationDegrees: pipeline.modelInclinationDegrees)
        } catch {
            return Outcome(effects: [.log(.info, "calibration refused", ["reason": "\(error)"])], reply: .failure(.fitRefused(error)))
        }
        calibration = .saved(
            SavedCalibration(calibration: result.calibration, createdAt: UTCTime(seconds: utcSeconds), quality: .init(result.quality)))
        var effects = handle(.calibration(result.calibration), at: seconds)
        effects += endCalibration(at: seconds)
        effects.append(.play(.calibrationDone))
        effects.append(
            .log(
                .notice, "calibration stored",
                ["fitError": "\(result.quality.fitErrorPercent)", "coverage": "\(result.quality.coveragePercent)"]))
        effects.append(.save(.calibration))
        return Outcome(effects: effects, reply: .success(.calibration(.stored)), done: "calibrated and in use")
    }

    private mutating func endCalibration(at seconds: Double) -> [Effect] {
        calibrationFit = nil
        return [.calibratingChanged(false)] + applyMute(at: seconds)
    }

    /// `none`, `stored` (a calibration is in use) or `running`.
    public var calibrationState: String {
        calibrationFit != nil ? "running" : calibration == .none ? "none" : "stored"
    }
}
