import Foundation

/// Times and dates as the chat view writes them, from the settings' time zone (no Calendar per
/// item: civil dates from day numbers, Howard Hinnant's algorithm).
enum ChatTime {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Seconds since 1970 in local time.
    static func localSeconds(_ date: Date, _ timeZone: TimeZone) -> Int {
        Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date)
    }

    /// The local day number (days since 1970-01-01).
    static func day(_ date: Date, _ timeZone: TimeZone) -> Int {
        floorDiv(localSeconds(date, timeZone), 86_400)
    }

    /// `13:05`, or `1:05 pm`.
    static func time(_ date: Date, _ timeZone: TimeZone, _ format: TimeFormat) -> String {
        let seconds = localSeconds(date, timeZone) - day(date, timeZone) * 86_400
        let hour = seconds / 3600
        let minute = (seconds % 3600) / 60
        let mm = minute < 10 ? "0\(minute)" : "\(minute)"
        switch format {
        case .twentyFourHour: return (hour < 10 ? "0\(hour)" : "\(hour)") + ":" + mm
        case .twelveHour:
            let h = hour % 12 == 0 ? 12 : hour % 12
            return "\(h):\(mm) " + (hour < 12 ? "am" : "pm")
        }
    }

    /// A date separator: `Today`, `Yesterday`, `Mon, 5 Jan`, or `Mon, 5 Jan 2024` in another year.
    static func separator(_ date: Date, now: Date, _ timeZone: TimeZone) -> String {
        let day = day(date, timeZone)
        let today = self.day(now, timeZone)
        if day == today { return "Today" }
        if day == today - 1 { return "Yesterday" }
        let (year, month, dayOfMonth) = civil(day)
        let weekday = weekdays[((day % 7) + 11) % 7]  // 1970-01-01 was a Thursday
        let text = "\(weekday), \(dayOfMonth) \(months[month - 1])"
        return year == civil(today).year ? text : "\(text) \(year)"
    }

    /// `1:05`, `12:30`, `1:02:03` for a duration in seconds.
    static func duration(_ seconds: Int) -> String {
        let s = max(0, seconds)
        let two = { (v: Int) in v < 10 ? "0\(v)" : "\(v)" }
        if s >= 3600 { return "\(s / 3600):\(two((s % 3600) / 60)):\(two(s % 60))" }
        return "\(s / 60):\(two(s % 60))"
    }

    /// A disappearing message's time to live: `30s`, `5m`, `1h`, `1d`, `1w`, `1mth`.
    static func ttl(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400: return "\(seconds / 3600)h"
        case ..<(7 * 86_400): return "\(seconds / 86_400)d"
        case ..<(30 * 86_400): return "\(seconds / (7 * 86_400))w"
        default: return "\(seconds / (30 * 86_400))mth"
        }
    }

    static func civil(_ day: Int) -> (year: Int, month: Int, day: Int) {
        let z = day + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
