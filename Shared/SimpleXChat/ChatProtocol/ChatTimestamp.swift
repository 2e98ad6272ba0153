import Foundation

/// A UTC instant with picosecond precision (Haskell's `UTCTime`), written as aeson writes one:
/// `2024-03-08T12:34:56.5Z`, the fraction without trailing zeros and left out when zero.
public struct ChatTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public let seconds: Int64
    /// The fraction of the second, `0..<1_000_000_000_000`.
    public let picoseconds: Int64

    static let picosecondsPerSecond: Int64 = 1_000_000_000_000

    /// An instant; picoseconds outside one second carry into the seconds.
    public init(seconds: Int64, picoseconds: Int64 = 0) {
        let carry =
            picoseconds >= 0
            ? picoseconds / Self.picosecondsPerSecond : (picoseconds + 1) / Self.picosecondsPerSecond - 1
        self.seconds = seconds + carry
        self.picoseconds = picoseconds - carry * Self.picosecondsPerSecond
    }

    /// The instant of `date`, to the nanosecond (`Date` holds no more).
    public init(_ date: Date) {
        let interval = date.timeIntervalSince1970
        let whole = interval.rounded(.down)
        let nanoseconds = Int64(((interval - whole) * 1e9).rounded())
        self.init(seconds: Int64(whole), picoseconds: nanoseconds * 1000)
    }

    /// This instant as a `Date` (to about a microsecond for present-day dates).
    public var date: Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(picoseconds) / 1e12)
    }

    public static func < (lhs: ChatTimestamp, rhs: ChatTimestamp) -> Bool {
        (lhs.seconds, lhs.picoseconds) < (rhs.seconds, rhs.picoseconds)
    }

    /// ISO 8601 in UTC as aeson writes it.
    public var description: String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds + 1) / 86_400 - 1
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civil(fromDays: days)
        var text = year < 0 ? "-" : ""
        text += pad(abs(year), 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text +=
            "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":"
            + pad(secondOfDay % 60, 2)
        if picoseconds > 0 {
            var fraction = pad(picoseconds, 12)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "Z"
    }

    private func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Parses what aeson reads as a `UTCTime`: `YYYY-MM-DD`, `T` (or a space), `HH:MM`, optional
    /// `:SS` with an optional fraction (digits past 12 are dropped), then `Z`, an offset `±HH:MM`,
    /// `±HHMM` or `±HH`, or nothing (UTC).
    public init?(iso8601 text: String) {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"), let month = scanner.number(digits: 2),
            scanner.skip("-"), let day = scanner.number(digits: 2),
            scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
            let hour = scanner.number(digits: 2), scanner.skip(":"), let minute = scanner.number(digits: 2),
            (1...12).contains(month), (1...Self.daysInMonth(year: year, month: month)).contains(day),
            hour < 24, minute < 60
        else { return nil }
        var second: Int64 = 0
        var picoseconds: Int64 = 0
        if scanner.skip(":") {
            guard let whole = scanner.number(digits: 2), whole <= 60 else { return nil }
            second = whole
            if scanner.skip(".") {
                let digits = scanner.digitRun()
                guard !digits.isEmpty else { return nil }
                let kept = digits.prefix(12)
                picoseconds = kept.reduce(0) { $0 * 10 + Int64($1 - 0x30) }
                for _ in kept.count..<12 { picoseconds *= 10 }
            }
        }
        var offsetSeconds: Int64 = 0
        if scanner.skip("Z") || scanner.skip("z") {
        } else if let sign = scanner.sign() {
            guard let offsetHours = scanner.number(digits: 2) else { return nil }
            var offsetMinutes: Int64 = 0
            if scanner.skip(":") {
                guard let minutes = scanner.number(digits: 2) else { return nil }
                offsetMinutes = minutes
            } else if let minutes = scanner.number(digits: 2) {
                offsetMinutes = minutes
            }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard scanner.isAtEnd else { return nil }
        let days = Self.days(fromCivil: year, month, day)
        self.init(
            seconds: days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds,
            picoseconds: picoseconds)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day number (H. Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension ChatTimestamp: ChatJSONRepresentable {
    init(json: JSON, path: String) throws(ChatProtocolError) {
        let text = try JSONFields.string(json, path: path)
        guard let timestamp = ChatTimestamp(iso8601: text) else {
            throw .invalidValue(path: path, reason: "not an ISO 8601 time: \(text)")
        }
        self = timestamp
    }

    var json: JSON { .string(description) }
}

/// Reads fixed-width decimal fields from ASCII bytes.
private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func number(digits count: Int) -> Int64? {
        guard bytes.count - index >= count else { return nil }
        var value: Int64 = 0
        for byte in bytes[index..<index + count] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        index += count
        return value
    }

    mutating func digitRun() -> ArraySlice<UInt8> {
        let start = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
        return bytes[start..<index]
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
