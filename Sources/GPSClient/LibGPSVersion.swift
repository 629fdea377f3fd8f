internal import CGPS

/// The libgps this build was compiled against.
public enum LibGPSVersion {
    /// `GPSD_API_MAJOR_VERSION` of the libgps headers: 11 for gpsd 3.22, 14 for 3.25.
    public static var apiMajor: Int { Int(cgps_api_major_version()) }
}
