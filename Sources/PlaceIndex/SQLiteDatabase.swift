import CSQLite
@preconcurrency import Glibc

/// An SQLite database file, each C call wrapped once, errors as values naming the call and the
/// file. Not for use from two threads at once: callers hold it behind their own lock.
public final class SQLiteDatabase {
    /// How a database is opened.
    public enum Mode {
        /// Read only (the daemon's index).
        case readOnly
        /// Read and write, created if missing (an import).
        case create
    }

    let handle: OpaquePointer
    /// The file, for messages.
    public let path: String

    public init(path: String, mode: Mode) throws(SQLiteError) {
        var handle: OpaquePointer?
        let flags = mode == .readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let code = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: code, message: message, context: "opening \(path)", systemErrno: handle.map(sqlite3_system_errno) ?? 0)
        }
        self.handle = handle
        self.path = path
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs SQL that returns no rows (one or more statements).
    public func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &error)
        guard code == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw SQLiteError(code: code, message: message, context: "\(path): \(sql.prefix(60))", systemErrno: sqlite3_system_errno(handle))
        }
    }

    /// A statement to run, and run again with other values.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(
                code: code, message: String(cString: sqlite3_errmsg(handle)), context: "\(path): \(sql.prefix(60))",
                systemErrno: sqlite3_system_errno(handle))
        }
        return Statement(statement, database: self)
    }

    /// A value to bind.
    public enum Value {
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob([UInt8])
        case null
    }

    /// A prepared statement.
    public final class Statement {
        let statement: OpaquePointer
        let database: SQLiteDatabase

        init(_ statement: OpaquePointer, database: SQLiteDatabase) {
            self.statement = statement
            self.database = database
        }

        deinit { sqlite3_finalize(statement) }

        /// Resets it and binds `values` to its parameters, in order.
        public func bind(_ values: [Value]) throws(SQLiteError) {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let code: Int32
                switch value {
                case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
                case .real(let number): code = sqlite3_bind_double(statement, index, number)
                case .text(let text): code = sqlite3_bind_text(statement, index, text, -1, waypoint_sqlite_transient())
                case .blob(let bytes):
                    code = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), waypoint_sqlite_transient()) }
                case .null: code = sqlite3_bind_null(statement, index)
                }
                guard code == SQLITE_OK else { throw database.error(code, "binding parameter \(index)") }
            }
        }

        /// The next row: true when there is one to read, false when the statement is done.
        public func step() throws(SQLiteError) -> Bool {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            case let code: throw database.error(code, "running a statement")
            }
        }

        /// Ends a read before its last row: an unfinished read holds its tables (a DROP waits for
        /// none, it fails).
        public func reset() { sqlite3_reset(statement) }

        /// Binds `values` and runs it to the end.
        public func run(_ values: [Value]) throws(SQLiteError) {
            try bind(values)
            while try step() {}
        }

        public func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        public func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        /// Whether a column is NULL (``integer(_:)`` reads NULL as 0).
        public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        /// A blob column's bytes (empty when NULL), at most `maximumBytes`: nil when larger.
        public func blob(_ column: Int32, maximumBytes: Int) -> [UInt8]? {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count <= maximumBytes else { return nil }
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: count))
        }
        /// A text column, nil when NULL.
        public func text(_ column: Int32) -> String? {
            guard let bytes = sqlite3_column_text(statement, column) else { return nil }
            return String(cString: bytes)
        }
    }

    func error(_ code: Int32, _ context: String) -> SQLiteError {
        SQLiteError(
            code: code, message: String(cString: sqlite3_errmsg(handle)), context: "\(path): \(context)",
            systemErrno: sqlite3_system_errno(handle))
    }

    /// Whether the database has a table of that name (in `sqlite_schema`): asked rather than
    /// told by the words of an error.
    public func hasTable(_ name: String) throws(SQLiteError) -> Bool {
        let rows = try prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?")
        try rows.bind([.text(name)])
        return try rows.step()
    }

    /// The row id the last insert made.
    public var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(handle) }
}

/// What SQLite said, and what we were doing.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's result code (`SQLITE_FULL` is 13: the disk is full).
    public var code: Int32
    public var message: String
    public var context: String
    /// The errno behind an I/O error (`sqlite3_system_errno`), 0 when none.
    public var systemErrno: Int32

    public var description: String {
        "\(context): \(message)" + (systemErrno != 0 ? " (\(String(cString: strerror(systemErrno))))" : "")
    }
    /// Whether the disk, a quota or a file size limit was full: SQLite's "full", or an I/O
    /// error whose errno says so (a file size limit is EFBIG, which SQLite reports as I/O).
    public var isDiskFull: Bool { code & 0xFF == SQLITE_FULL || [ENOSPC, EFBIG, EDQUOT].contains(systemErrno) }
    /// Whether the file is no SQLite database at all (`SQLITE_NOTADB`).
    public var isNotADatabase: Bool { code & 0xFF == SQLITE_NOTADB }
}
