/// The largest absolute difference seen per column, so a test can check a whole file and
/// report the worst case in one expectation per column.
struct MaximumErrors {
    /// Largest error so far and the row it came from, by column name.
    private(set) var worst: [String: (error: Double, row: Int)] = [:]

    /// Records |actual − expected| for a column; a NaN difference counts as infinite.
    mutating func record(_ column: String, actual: Double, expected: Double, row: Int) {
        let difference = Swift.abs(actual - expected)
        let error = difference.isNaN ? Double.infinity : difference
        if error > (worst[column]?.error ?? -1) { worst[column] = (error, row) }
    }

    /// The largest error recorded for a column (zero if none).
    func error(_ column: String) -> Double { worst[column]?.error ?? 0 }

    /// The row of the largest error for a column (−1 if none).
    func row(_ column: String) -> Int { worst[column]?.row ?? -1 }
}
