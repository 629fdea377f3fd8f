import Foundation
import TestSupport

enum TestDataPath {
    static let config = TestData.packageRoot.appendingPathComponent("config/waypoint-web.conf")
}
