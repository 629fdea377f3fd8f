/// The first line the daemon sends on every connection:
/// `{"class":"VERSION","release":"0.1.0","proto":1}`.
public struct VersionGreeting: Sendable, Hashable {
    /// The protocol version this code speaks. Raise it, and note the change in the README's
    /// protocol changelog, whenever a message changes in a way an older client would misread.
    public static let protocolVersion = 1

    /// The daemon's release, ``Release/version``.
    public var release: String
    /// The protocol version, ``protocolVersion``.
    public var protocolVersion: Int

    /// The greeting of this build.
    public init(release: String = Release.version, protocolVersion: Int = Self.protocolVersion) {
        self.release = release
        self.protocolVersion = protocolVersion
    }
}

extension VersionGreeting: Encodable {
    enum CodingKeys: String, CodingKey {
        case messageClass = "class", release, protocolVersion = "proto"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ControlReply.MessageClass.version.rawValue, forKey: .messageClass)
        try container.encode(release, forKey: .release)
        try container.encode(protocolVersion, forKey: .protocolVersion)
    }
}
