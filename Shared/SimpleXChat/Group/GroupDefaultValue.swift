import Foundation

/// A type that can be stored under a GroupDefaults key.
public protocol GroupDefaultValue: Sendable, Equatable {
    /// The value a stored JSON value means, or nil when it is not a valid value of this type.
    init?(json: JSONValue)
    var json: JSONValue { get }
    /// Parses a value typed by a person (`simplex-chat defaults set KEY VALUE`).
    init?(text: String)
}

extension GroupDefaultValue where Self: RawRepresentable, RawValue == String {
    public init?(json: JSONValue) {
        guard case .string(let raw) = json else { return nil }
        self.init(rawValue: raw)
    }
    public var json: JSONValue { .string(rawValue) }
    public init?(text: String) { self.init(rawValue: text) }
}

extension Bool: GroupDefaultValue {
    public init?(json: JSONValue) {
        guard case .bool(let value) = json else { return nil }
        self = value
    }
    public var json: JSONValue { .bool(self) }
    public init?(text: String) {
        switch text {
        case "true", "on", "yes": self = true
        case "false", "off", "no": self = false
        default: return nil
        }
    }
}

extension Int: GroupDefaultValue {
    public init?(json: JSONValue) {
        guard case .int(let value) = json else { return nil }
        self = value
    }
    public var json: JSONValue { .int(self) }
    // `LosslessStringConvertible.init?(_:)` already parses decimal text.
    public init?(text: String) { self.init(text) }
}

extension String: GroupDefaultValue {
    public init?(json: JSONValue) {
        guard case .string(let value) = json else { return nil }
        self = value
    }
    public var json: JSONValue { .string(self) }
    public init?(text: String) { self = text }
}

/// Dates are stored as seconds since 1970, as the iOS `DateDefault` does; the default is
/// the epoch, which means "never".
extension Date: GroupDefaultValue {
    public init?(json: JSONValue) {
        switch json {
        case .int(let seconds): self.init(timeIntervalSince1970: TimeInterval(seconds))
        case .double(let seconds) where seconds.isFinite: self.init(timeIntervalSince1970: seconds)
        default: return nil
        }
    }
    public var json: JSONValue { .double(timeIntervalSince1970) }
    public init?(text: String) {
        guard let seconds = Double(text), seconds.isFinite else { return nil }
        self.init(timeIntervalSince1970: seconds)
    }
}

extension Optional: GroupDefaultValue where Wrapped: GroupDefaultValue {
    public init?(json: JSONValue) {
        if case .null = json {
            self = .none
        } else if let value = Wrapped(json: json) {
            self = .some(value)
        } else {
            return nil
        }
    }
    public var json: JSONValue { map(\.json) ?? .null }
    public init?(text: String) {
        if text.isEmpty || text == "none" {
            self = .none
        } else if let value = Wrapped(text: text) {
            self = .some(value)
        } else {
            return nil
        }
    }
}
