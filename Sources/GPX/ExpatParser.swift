import CExpat

/// expat, wrapped once: a namespace-aware parser that hands element starts, ends and text to
/// a ``GPXBuilder`` and refuses any document type declaration.
///
/// Element names arrive as `namespace-URI name` (expat's namespace processing with a space as
/// the separator: a space cannot occur in a URI). Parameter entities are never parsed (expat's
/// default), and a document type declaration stops the parser at its first line, so no entity
/// is ever declared, expanded or fetched.
final class ExpatParser {
    private let parser: XML_Parser
    /// What the handlers build, and the first error they met.
    private var builder: GPXBuilder
    private var failure: GPXError?

    /// A parser feeding a builder with `limits`.
    /// - Returns: nil when expat cannot allocate one.
    init?(limits: GPXReader.Limits) {
        guard let parser = XML_ParserCreateNS("UTF-8", CChar(UInt8(ascii: " "))) else { return nil }
        self.parser = parser
        builder = GPXBuilder(limits: limits)
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetElementHandler(
            parser,
            { userData, name, attributes in
                ExpatParser.this(userData).started(name, attributes)
            },
            { userData, _ in
                ExpatParser.this(userData).ended()
            })
        XML_SetCharacterDataHandler(parser) { userData, bytes, length in
            ExpatParser.this(userData).text(bytes, length)
        }
        XML_SetStartDoctypeDeclHandler(parser) { userData, _, _, _, _ in
            let this = ExpatParser.this(userData)
            this.fail(.documentTypeRefused(at: this.position))
        }
    }

    deinit { XML_ParserFree(parser) }

    /// Parses the whole document.
    /// - Returns: What the builder made of it.
    /// - Throws: ``GPXError``: the builder's, or expat's with its position.
    func parse(_ bytes: UnsafeRawBufferPointer) throws(GPXError) -> GPXDocument {
        let status = XML_Parse(
            parser, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count), 1)
        if let failure { throw failure }
        guard status == XML_STATUS_OK else {
            let reason = XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) } ?? "unknown error"
            throw .notXML(reason: reason, at: position)
        }
        return builder.document
    }

    /// Where the parser is now, from 1 (expat counts columns from 0).
    private var position: GPXError.Position {
        GPXError.Position(
            line: Int(clamping: XML_GetCurrentLineNumber(parser)), column: Int(clamping: XML_GetCurrentColumnNumber(parser)) + 1)
    }

    private static func this(_ userData: UnsafeMutableRawPointer?) -> ExpatParser {
        Unmanaged<ExpatParser>.fromOpaque(userData!).takeUnretainedValue()
    }

    /// Keeps the first error and stops the parser: nothing after it is read.
    private func fail(_ error: GPXError) {
        if failure == nil { failure = error }
        XML_StopParser(parser, 0)
    }

    private func started(_ name: UnsafePointer<CChar>?, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>?) {
        guard failure == nil, let name else { return }
        let qualified = String(cString: name)
        let (namespace, local) = Self.split(qualified)
        var values: [String: String] = [:]
        var index = 0
        while let key = attributes?[index], let value = attributes?[index + 1] {
            let (attributeNamespace, attributeName) = Self.split(String(cString: key))
            if attributeNamespace == nil { values[attributeName] = String(cString: value) }
            index += 2
        }
        do throws(GPXError) {
            try builder.start(namespace: namespace, name: local, attributes: values, at: position)
        } catch {
            fail(error)
        }
    }

    private func ended() {
        guard failure == nil else { return }
        do throws(GPXError) {
            try builder.end(at: position)
        } catch {
            fail(error)
        }
    }

    private func text(_ bytes: UnsafePointer<CChar>?, _ length: Int32) {
        guard failure == nil, let bytes, length > 0 else { return }
        let buffer = UnsafeBufferPointer(
            start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: Int(length))
        do throws(GPXError) {
            try builder.characters(buffer, at: position)
        } catch {
            fail(error)
        }
    }

    /// `http://… name` as namespace and local name; a name without a namespace as nil and itself.
    private static func split(_ qualified: String) -> (String?, String) {
        guard let space = qualified.lastIndex(of: " ") else { return (nil, qualified) }
        return (String(qualified[..<space]), String(qualified[qualified.index(after: space)...]))
    }
}
