/// "Delete messages after" as SimpleX offers it: never, a day, a week, a month, a year.
public enum ChatItemTTL {
    public static let choices: [Int?] = [nil, 86_400, 7 * 86_400, 30 * 86_400, 365 * 86_400]

    /// `never`, `1 day`, …, or the seconds another client set.
    public static func text(_ seconds: Int?) -> String {
        switch seconds {
        case nil: "never"
        case 86_400: "1 day"
        case 7 * 86_400: "1 week"
        case 30 * 86_400: "1 month"
        case 365 * 86_400: "1 year"
        case let seconds?: "\(seconds) seconds"
        }
    }
}
