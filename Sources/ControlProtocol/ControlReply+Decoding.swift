import TextFormats
extension ControlReply {
    /// Reads one line the daemon sent, without its newline: what a client does with each line
    /// ``LineFramer`` gives it. Fields this version does not know are ignored, and `null` (or an
    /// absent field) is read as unknown wherever the message allows it, so a newer daemon that
    /// adds fields still talks to this client.
    ///
    /// An `ERROR` whose `code` this version does not know is read as
    /// ``ControlErrorCode/internal`` with the daemon's code kept at the front of the message,
    /// so nothing the daemon said is lost.
    ///
    /// - Parameters:
    ///   - line: The line's bytes, UTF-8 JSON.
    ///   - printable: Whether every string in the reply (names, problems, messages) comes with
    ///     its control characters escaped by ``PlaceName/printable(_:)``: what a client that
    ///     prints replies asks for, so that nothing a daemon relays can repaint a terminal.
    /// - Throws: ``ReplyDecodingError`` naming what was wrong.
    public init(line: some Collection<UInt8>, printable: Bool = false) throws(ReplyDecodingError) {
        var value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONParser.parse(line)
            if printable { value = value.mappingStrings(PlaceName.printable) }
        } catch {
            // The detail clients and tests know; a daemon's line is not for people to fix.
            throw .notJSONObject(detail: "not valid JSON")
        }
        let messageClass: String
        do {
            guard let name = try JSONValueDecoder().decode(Envelope.self, from: value).messageClass else {
                throw ReplyDecodingError.missingClass
            }
            messageClass = name
        } catch let error as ReplyDecodingError {
            throw error
        } catch {
            throw .notJSONObject(detail: Self.summary(of: error))
        }

        guard let known = MessageClass(rawValue: messageClass) else { throw .unknownClass(messageClass) }
        switch known {
        case .ok: self = .ok
        case .version: self = .version(try Self.decode(VersionGreeting.self, from: value, messageClass))
        case .status: self = .status(try Self.decode(StatusReport.self, from: value, messageClass))
        case .calibration: self = .calibration(try Self.decode(CalibrationReport.self, from: value, messageClass))
        case .recent: self = .recent(try Self.decode(RecentBody.self, from: value, messageClass).destinations)
        case .route: self = .route(try Self.decode(RouteBody.self, from: value, messageClass).route)
        case .places: self = .places(try Self.decode(PlacesBody.self, from: value, messageClass).places)
        case .track: self = .track(try Self.decode(TrackReport.self, from: value, messageClass))
        case .placeMarked: self = .placeMarked(try Self.decode(PlaceMarkReport.self, from: value, messageClass))
        case .search: self = .search(try Self.decode(SearchReport.self, from: value, messageClass))
        case .whereAmI: self = .whereAmI(try Self.decode(WhereReport.self, from: value, messageClass))
        case .plan: self = .plan(try Self.decode(WalkPlanReport.self, from: value, messageClass))
        case .error:
            let body = try Self.decode(ErrorBody.self, from: value, messageClass)
            if let code = ControlErrorCode(rawValue: body.code) {
                self = .error(ControlError(code, body.message))
            } else {
                self = .error(ControlError(.internal, "[\(body.code.prefix(40))] \(body.message)"))
            }
        }
    }

    private static func decode<Body: Decodable>(_ type: Body.Type, from value: JSONValue, _ messageClass: String)
        throws(ReplyDecodingError) -> Body
    {
        do {
            return try JSONValueDecoder().decode(type, from: value)
        } catch let error as DecodingError {
            throw .badField(messageClass: messageClass, field: Self.path(of: error), detail: Self.summary(of: error))
        } catch {
            throw .badField(messageClass: messageClass, field: "", detail: "\(error)")
        }
    }

    /// `fix.mode`: where in the message a decoding error happened.
    private static func path(of error: DecodingError) -> String {
        let context: DecodingError.Context? =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context
            case .keyNotFound(let key, let context):
                DecodingError.Context(
                    codingPath: context.codingPath + [key], debugDescription: context.debugDescription)
            @unknown default: nil
            }
        return (context?.codingPath ?? []).map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    /// A short phrase for people; the decoder's own descriptions are long and type-centred.
    private static func summary(of error: any Error) -> String {
        switch error as? DecodingError {
        case .typeMismatch(let type, _)?: "expected \(Self.jsonName(of: type))"
        case .valueNotFound(let type, _)?: "expected \(Self.jsonName(of: type)), found null"
        case .keyNotFound?: "missing"
        // Syntax errors never get here (`JSONParser` rejects them first): this is a number that
        // does not fit its field, and the decoder's text says which number and type.
        case .dataCorrupted(let context)?: context.debugDescription
        default: "\(error)"
        }
    }

    private static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}

/// Just the discriminator: enough to choose how to read the rest.
private struct Envelope: Decodable {
    let messageClass: String?
    enum CodingKeys: String, CodingKey { case messageClass = "class" }
}

/// `{"class":"RECENT","destinations":[…]}`.
private struct RecentBody: Decodable {
    let destinations: [DestinationReport]
    enum CodingKeys: String, CodingKey { case destinations }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // An absent or null list is an empty one.
        destinations = try container.decodeIfPresent([DestinationReport].self, forKey: .destinations) ?? []
    }
}

/// `{"class":"ROUTE","route":{…}}`; an absent route is none.
private struct RouteBody: Decodable {
    let route: RouteReport?
}

/// `{"class":"PLACES","places":[…]}`.
private struct PlacesBody: Decodable {
    let places: [DestinationReport]
    enum CodingKeys: String, CodingKey { case places }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // An absent or null list is an empty one.
        places = try container.decodeIfPresent([DestinationReport].self, forKey: .places) ?? []
    }
}

/// `{"class":"ERROR","code":…,"message":…}`.
private struct ErrorBody: Decodable {
    let code: String
    let message: String
    enum CodingKeys: String, CodingKey { case code, message }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(String.self, forKey: .code)
        message = try container.decodeIfPresent(String.self, forKey: .message) ?? ""
    }
}
