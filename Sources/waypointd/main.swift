import ControlProtocol
import GPSClient
print("waypointd \(Release.version) (libgps API \(LibGPSVersion.apiMajor))")
