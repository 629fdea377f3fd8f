import TextFormats

/// Typed access to a request's fields; a present field of the wrong type or out of range is an
/// error naming it, an absent (or null) one is nil.
struct RequestReader {
    let object: [String: JSONValue]

    func number(_ key: String, in range: ClosedRange<Double>, prefix: String = "") throws(ControlError) -> Double? {
        guard let raw = object[key], raw != .null else { return nil }
        let field = prefix + key
        guard let value = raw.number else { throw ControlError(.badArgument, "\(field) must be a number") }
        guard value.isFinite else { throw ControlError(.badArgument, "\(field) must be a finite number") }
        guard range.contains(value) else {
            throw ControlError(
                .badArgument,
                "\(field) \(value) is outside [\(JSONWriter.number(range.lowerBound)), \(JSONWriter.number(range.upperBound))]")
        }
        return value
    }

    /// A name that keeps ``PlaceName``'s rules, or nil when absent or null.
    func optionalName(_ key: String, prefix: String = "") throws(ControlError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?:
            do throws(PlaceNameError) {
                return try PlaceName.validated(text)
            } catch {
                throw ControlError(.badArgument, prefix.isEmpty ? "\(error)" : "\(prefix)\(error)")
            }
        default: throw ControlError(.badArgument, "\(prefix)\(key) must be a string or null")
        }
    }

    /// A name that must be there.
    func name(_ key: String) throws(ControlError) -> String {
        guard let name = try optionalName(key) else { throw ControlError(.badArgument, "\(key) is required") }
        return name
    }

    /// One of `names`, or `fallback` when absent.
    func word(_ key: String, among names: [String], default fallback: String) throws(ControlError) -> String {
        guard let raw = object[key], raw != .null else { return fallback }
        guard let text = raw.string, names.contains(text) else {
            throw ControlError(.badArgument, "\(key) must be one of: \(names.joined(separator: ", "))")
        }
        return text
    }

    func boolean(_ key: String) throws(ControlError) -> Bool? {
        guard let raw = object[key], raw != .null else { return nil }
        guard let value = raw.bool else { throw ControlError(.badArgument, "\(key) must be true or false") }
        return value
    }

    func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, default fallback: Choice) throws(ControlError)
        -> Choice where Choice.RawValue == String
    {
        guard let raw = object[key], raw != .null else { return fallback }
        guard let text = raw.string, let value = Choice(rawValue: text) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw ControlError(.badArgument, "\(key) must be one of: \(names)")
        }
        return value
    }
}
