import Foundation

/// Reference data files kept in the repository for tests, found relative to this source file so
/// that tests run from any working directory.
public enum TestData {
    /// The package root: this file lives at `Sources/TestSupport/TestData.swift`.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A file below the package root, e.g. `"Tests/GeodesyTests/Data/geodesic_inverse.tsv"`.
    public static func url(_ relativePath: String) -> URL {
        packageRoot.appendingPathComponent(relativePath)
    }

    /// The contents of a file below the package root.
    /// - Throws: when the file cannot be read.
    public static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: url(relativePath), encoding: .utf8)
    }

    /// The rows of a whitespace-separated table, skipping blank lines, `#` comments and any
    /// line whose first field is not a number (a header).
    /// - Throws: when the file cannot be read.
    public static func table(_ relativePath: String) throws -> [Row] {
        var rows: [Row] = []
        for (index, line) in try text(relativePath).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .enumerated()
        {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let first = fields.first, !first.hasPrefix("#"), Double(first) != nil else { continue }
            rows.append(Row(lineNumber: index + 1, fields: fields))
        }
        return rows
    }

    /// The numeric rows of a whitespace-separated table (see `table(_:)`), with `NaN` read as NaN.
    /// - Throws: when the file cannot be read.
    public static func numericRows(_ relativePath: String) throws -> [[Double]] {
        try table(relativePath).map { row in row.fields.indices.map(row.number) }
    }

    /// One line of a data table.
    public struct Row: Sendable, CustomStringConvertible {
        /// 1-based line number in the file, for failure messages.
        public let lineNumber: Int
        /// The fields as written.
        public let fields: [String]

        /// Field `index` as a number (`NaN` stays NaN).
        public func number(_ index: Int) -> Double {
            guard let value = Double(fields[index]) else {
                preconditionFailure("line \(lineNumber): field \(index) '\(fields[index])' is not a number")
            }
            return value
        }

        /// `line N: field field field…`
        public var description: String { "line \(lineNumber): " + fields.joined(separator: " ") }
    }
}
