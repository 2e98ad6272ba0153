internal import CSQLite

/// An SQLite result code (primary or extended), as a Swift value so no C type leaks into the API.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code of an extended code: SQLite keeps it in the low byte.
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xff) }

    public var description: String { String(rawValue) }

    public static let error = ResultCode(rawValue: SQLITE_ERROR)
    public static let busy = ResultCode(rawValue: SQLITE_BUSY)
    public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
    public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
    public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
    public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
    public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
    public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
    public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
    public static let range = ResultCode(rawValue: SQLITE_RANGE)
    public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)

    // sqlite3.h defines the extended codes as `(SQLITE_CONSTRAINT | (n<<8))`, which Swift
    // cannot import; the same expressions here.
    /// SQLITE_IOERR_DATA: a page that does not open with the database's key (PageCipher).
    public static let tampered = ResultCode(rawValue: SQLITE_IOERR | (32 << 8))

    public static let constraintCheck = ResultCode(rawValue: SQLITE_CONSTRAINT | (1 << 8))
    public static let constraintForeignKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (3 << 8))
    public static let constraintNotNull = ResultCode(rawValue: SQLITE_CONSTRAINT | (5 << 8))
    public static let constraintPrimaryKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (6 << 8))
    public static let constraintUnique = ResultCode(rawValue: SQLITE_CONSTRAINT | (8 << 8))
}

/// An error at the SQLite boundary: the result code, SQLite's message and the SQL that failed.
///
/// The error records how many arguments were bound but never their values: arguments carry
/// message text, keys and other secrets, and errors end up in logs.
public struct DatabaseError: Error, CustomStringConvertible {
    /// The extended result code (SQLite's extended codes are switched on for every connection).
    public let extendedResultCode: ResultCode
    /// SQLite's message, or ours when the failure is detected before SQLite sees it.
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?
    /// How many arguments were bound to `sql`.
    public let argumentCount: Int

    /// The primary result code, e.g. `.constraint` for every kind of constraint violation.
    public var resultCode: ResultCode { extendedResultCode.primary }

    public init(_ code: ResultCode, message: String, sql: String? = nil, argumentCount: Int = 0) {
        self.extendedResultCode = code
        self.message = message
        self.sql = sql
        self.argumentCount = argumentCount
    }

    /// One line, so a log entry stays one entry however the SQL was formatted.
    public var description: String {
        var text = "SQLite error \(resultCode) (\(message))"
        if let sql { text += " in \"\(Self.oneLine(sql))\"" }
        var details: [String] = []
        if extendedResultCode != resultCode { details.append("extended code \(extendedResultCode)") }
        if argumentCount > 0 {
            details.append(argumentCount == 1 ? "1 argument" : "\(argumentCount) arguments")
        }
        if !details.isEmpty { text += ", " + details.joined(separator: ", ") }
        return text
    }

    /// Whitespace runs (newlines in migration scripts) become one space; long scripts are cut.
    static func oneLine(_ sql: String, limit: Int = 300) -> String {
        let words = sql.split(whereSeparator: { $0.isWhitespace })
        let joined = words.joined(separator: " ")
        guard joined.count > limit else { return joined }
        return joined.prefix(limit) + "…"
    }

    /// The error SQLite reports on `connection` for the call that returned `code`.
    ///
    /// Read `sqlite3_errmsg` right after the failing call: the next call on the connection replaces it.
    static func lastError(
        on connection: OpaquePointer?, code: Int32, sql: String?, argumentCount: Int = 0
    ) -> DatabaseError {
        let message: String
        if code == ResultCode.tampered.rawValue {
            message =
                "tampering: a page of the database does not authenticate (the file was modified, or the key is wrong)"
        } else if let connection, let cMessage = sqlite3_errmsg(connection) {
            message = String(cString: cMessage)
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
        return DatabaseError(
            ResultCode(rawValue: code), message: message, sql: sql, argumentCount: argumentCount)
    }
}
