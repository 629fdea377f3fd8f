import Heading
import Testing

@Suite("Averaging the reads of one sample period", .timeLimit(.minutes(5)))
struct IMUSampleAverageTests {
    @Test("the mean of the samples added, then a fresh start")
    func mean() {
        var average = IMUSampleAverage()
        #expect(average.take() == nil)
        average.add(IMUSample(magneticMicrotesla: Vector3(20, -4, 40), accelerationG: Vector3(0.5, 0, -1), angularRateDegreesPerSecond: Vector3(2, 0, 6)))
        average.add(IMUSample(magneticMicrotesla: Vector3(22, -6, 44), accelerationG: Vector3(0.25, 0.5, -0.5), angularRateDegreesPerSecond: Vector3(4, -2, 8)))
        #expect(
            average.take()
                == IMUSample(magneticMicrotesla: Vector3(21, -5, 42), accelerationG: Vector3(0.375, 0.25, -0.75), angularRateDegreesPerSecond: Vector3(3, -1, 7)))
        #expect(average.take() == nil)
    }

    @Test("one sample is passed on exactly, as read")
    func single() {
        let sample = IMUSample(magneticMicrotesla: Vector3(0.1, 0.2, 0.3), accelerationG: Vector3(1e-3, 7e-3, -0.999), angularRateDegreesPerSecond: nil)
        var average = IMUSampleAverage()
        average.add(sample)
        #expect(average.take() == sample)
    }

    @Test("the angular rate is averaged only when every sample has one")
    func partialGyroscope() {
        var average = IMUSampleAverage()
        average.add(IMUSample(magneticMicrotesla: Vector3(1, 0, 0), accelerationG: Vector3(0, 0, -1), angularRateDegreesPerSecond: Vector3(1, 1, 1)))
        average.add(IMUSample(magneticMicrotesla: Vector3(3, 0, 0), accelerationG: Vector3(0, 0, -1), angularRateDegreesPerSecond: nil))
        let mean = average.take()
        #expect(mean?.magneticMicrotesla == Vector3(2, 0, 0))
        #expect(mean != nil && mean?.angularRateDegreesPerSecond == nil)
    }

    @Test("without a gyroscope the chips are read as often as they sample, up to 100 Hz; with one, once a sample")
    func readsPerSample() {
        #expect(IMUSampleAverage.readsPerSample(hasGyroscope: false, sampleRateHertz: 50) == 2)
        #expect(IMUSampleAverage.readsPerSample(hasGyroscope: false, sampleRateHertz: 25) == 4)
        #expect(IMUSampleAverage.readsPerSample(hasGyroscope: false, sampleRateHertz: 100) == 1)
        #expect(IMUSampleAverage.readsPerSample(hasGyroscope: false, sampleRateHertz: 200) == 1)
        #expect(IMUSampleAverage.readsPerSample(hasGyroscope: true, sampleRateHertz: 50) == 1)
    }
}
