import CommandLineSupport

/// Runs a batch conversion over standard input: one output line per input line, in order.
///
/// A line whose first non-blank character is `#` is a comment, copied to the output as it is.
/// A line that cannot be read gets `nan` fields on standard output, so the output stays aligned
/// with the input for `paste`-style joins, and an error on standard error naming its line
/// number; the run goes on and ends with status 1.
enum BatchInput {
    /// One number of an input line: its name for messages, and the values it may take.
    struct Field {
        let name: String
        let range: ClosedRange<Double>
        /// The range as people write it, e.g. "between -90 and 90".
        let rangeText: String

        /// Any finite number.
        static func number(_ name: String) -> Field {
            Field(name: name, range: -.greatestFiniteMagnitude ... .greatestFiniteMagnitude, rangeText: "finite")
        }

        /// A latitude, −90…90.
        static func latitude(_ name: String) -> Field {
            Field(name: name, range: -90...90, rangeText: "between -90 and 90")
        }
    }

    /// Reads lines until end of input and converts each.
    /// - Parameters:
    ///   - fields: the numbers each line must hold.
    ///   - outputFieldCount: how many `nan`s stand in for a bad line.
    ///   - convert: turns the parsed numbers into the output line.
    /// - Returns: `.success`, or `.failure` when any line was bad.
    static func run(
        fields: [Field], outputFieldCount: Int,
        convert: ([Double]) -> String
    ) -> ExitStatus {
        var lineNumber = 0
        var failures = 0
        let placeholder = Array(repeating: "nan", count: outputFieldCount).joined(separator: " ")
        while let line = readLine(strippingNewline: true) {
            lineNumber += 1
            // A comment passes through, so the output stays aligned with the input.
            if line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#") {
                Console.output(line)
                continue
            }
            do throws(BatchLineError) {
                let numbers = try parse(line, fields: fields)
                Console.output(convert(numbers))
            } catch {
                failures += 1
                Console.output(placeholder)
                Console.error("line \(lineNumber): \(error.message)")
            }
        }
        return failures == 0 ? .success : .failure
    }

    /// Splits a line on blanks, tabs and commas into exactly `fields.count` finite numbers, each
    /// within its field's range.
    static func parse(_ line: String, fields: [Field]) throws(BatchLineError) -> [Double] {
        let texts = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\r" })
        guard texts.count == fields.count else {
            let expected = "expected \(fields.count) numbers (\(fields.map(\.name).joined(separator: " ")))"
            throw BatchLineError(texts.isEmpty ? "\(expected), got an empty line" : "\(expected), got \(texts.count)")
        }
        var numbers: [Double] = []
        numbers.reserveCapacity(texts.count)
        for (text, field) in zip(texts, fields) {
            // Double() also reads "nan", "inf" and hexadecimal: accept plain decimal notation only.
            guard text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
                let number = Double(text), number.isFinite
            else {
                throw BatchLineError("\(field.name) '\(text)' is not a finite decimal number")
            }
            guard field.range.contains(number) else {
                throw BatchLineError("\(field.name) '\(text)' is out of range (must be \(field.rangeText))")
            }
            numbers.append(number)
        }
        return numbers
    }
}

/// Why one batch line could not be converted.
struct BatchLineError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
