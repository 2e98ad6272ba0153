import Foundation

/// The name of a GroupDefaults key with its type-erased operations; the typed keys are
/// `GroupDefaultKey<Value>` instances declared as static members of this class, so that
/// `defaults[.appState]` reads naturally (the pattern of the `Defaults` library).
///
/// `@unchecked Sendable`: every stored property is an immutable `let` of a Sendable type.
public class GroupDefaultKeys: @unchecked Sendable, CustomStringConvertible {
    public let name: String

    fileprivate init(name: String) { self.name = name }

    /// The default as JSON.
    public var defaultJSON: JSONValue { .null }
    /// Whether `json` is a valid value for this key.
    public func accepts(_ json: JSONValue) -> Bool { false }
    /// The JSON value a person's text means for this key, or nil.
    public func parse(text: String) -> JSONValue? { nil }
    /// The values a person may choose from, when the key is an enumeration.
    public var choices: [String]? { nil }

    public var description: String { name }
}

/// A typed GroupDefaults key with its default value.
///
/// `@unchecked Sendable`: immutable, like its base class.
public final class GroupDefaultKey<Value: GroupDefaultValue>: GroupDefaultKeys, @unchecked Sendable {
    public let defaultValue: Value
    private let allowedChoices: [String]?

    public init(_ name: String, default defaultValue: Value) {
        self.defaultValue = defaultValue
        allowedChoices = nil
        super.init(name: name)
    }

    public init(_ name: String, default defaultValue: Value) where Value: CaseIterable & RawRepresentable,
        Value.RawValue == String
    {
        self.defaultValue = defaultValue
        allowedChoices = Value.allCases.map(\.rawValue)
        super.init(name: name)
    }

    public override var defaultJSON: JSONValue { defaultValue.json }
    public override func accepts(_ json: JSONValue) -> Bool { Value(json: json) != nil }
    public override func parse(text: String) -> JSONValue? { Value(text: text)?.json }
    public override var choices: [String]? { allowedChoices }
}
