/// Why a line from the daemon could not be read as a ``ControlReply``.
public enum ReplyDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line is not a JSON object (or not UTF-8); `detail` says what the parser saw.
    case notJSONObject(detail: String)
    /// The object has no `"class"` string.
    case missingClass
    /// `"class"` names a message this client does not know, e.g. one a newer daemon added.
    case unknownClass(String)
    /// A field of a known message is missing or of the wrong type.
    /// - `messageClass`: the message, e.g. `STATUS`.
    /// - `field`: the dotted path of the field, e.g. `fix.mode`.
    /// - `detail`: what was wrong with it.
    case badField(messageClass: String, field: String, detail: String)

    /// The problem in a phrase for people, e.g. `STATUS reply: field fix.mode: expected a whole number`.
    public var description: String {
        switch self {
        case .notJSONObject(let detail): "not a JSON object (\(detail))"
        case .missingClass: "a reply needs a \"class\" string"
        case .unknownClass(let name): "unknown reply class \"\(name.prefix(40))\""
        case .badField(let messageClass, let field, let detail):
            "\(messageClass) reply: \(field.isEmpty ? "" : "field \(field): ")\(detail)"
        }
    }
}
