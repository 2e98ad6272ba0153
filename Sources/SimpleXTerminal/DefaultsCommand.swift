import SimpleXChat

/// `simplex-chat defaults ...`: the shared settings, as the iOS developer tools show them.
struct DefaultsCommand {
    let defaults: GroupDefaults

    /// Every key with its value; `(default)` marks keys with no stored value.
    func list() -> [String] {
        let values = defaults.snapshot()
        let width = GroupDefaultKeys.all.map(\.name.count).max() ?? 0
        return GroupDefaultKeys.all.map { key in
            let name = key.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let marker = values.isSet(key) ? "" : "  (default)"
            return "\(name)  \(Self.show(values.json(for: key)))\(marker)"
        }
    }

    func get(_ name: String) throws(GroupDefaultsInputError) -> String {
        let key = try Self.key(name)
        return Self.show(defaults.snapshot().json(for: key))
    }

    func set(_ name: String, _ text: String) throws -> String {
        let key = try Self.key(name)
        try defaults.update { values in try values.set(key, text: text) }
        return "\(key.name) = \(Self.show(defaults.snapshot().json(for: key)))"
    }

    func reset(_ name: String) throws -> String {
        let key = try Self.key(name)
        try defaults.reset(key)
        return "\(key.name) = \(Self.show(key.defaultJSON)) (default)"
    }

    private static func key(_ name: String) throws(GroupDefaultsInputError) -> GroupDefaultKeys {
        guard let key = GroupDefaultKeys.named(name) else { throw .unknownKey(name) }
        return key
    }

    /// A value as a person would type it back.
    static func show(_ json: JSONValue) -> String {
        switch json {
        case .null: return "none"
        case .string(let text): return text
        default: return json.description
        }
    }
}
