import Foundation
import SimpleXSystem
import Synchronization

/// Settings and process states shared by every process through `groupDefaults.json` in the
/// group directory (iOS: the App Group's UserDefaults).
///
/// Reads take no lock: writers replace the file atomically (temp file, fsync, rename), so a
/// reader sees a whole version. Writes are read-modify-write under an exclusive `flock` on
/// `groupDefaults.lock`, so concurrent updates from several processes are never lost. A value
/// that is missing, of the wrong type or unknown to this version reads as the key's default; a
/// bad value or an unreadable file is reported (once) and never crashes.
public final class GroupDefaults: Sendable {
    public let path: String
    let lockPath: String
    private let report: @Sendable (GroupDefaultsProblem) -> Void
    private let reported = Mutex<Set<GroupDefaultsProblem>>([])
    /// The last file contents parsed, so reading an unchanged file costs one read, not a parse.
    private let cache = Mutex<(bytes: [UInt8], values: [String: JSONValue])?>(nil)

    /// GroupDefaults of a group container.
    public convenience init(
        container: GroupContainer,
        report: @escaping @Sendable (GroupDefaultsProblem) -> Void = GroupDefaults.logToStandardError
    ) {
        self.init(path: container.groupDefaultsPath, report: report)
    }

    /// GroupDefaults stored at `path`; problems go to `report` (each distinct one once).
    public init(
        path: String,
        report: @escaping @Sendable (GroupDefaultsProblem) -> Void = GroupDefaults.logToStandardError
    ) {
        self.path = path
        lockPath = (path.hasSuffix(".json") ? String(path.dropLast(5)) : path) + ".lock"
        self.report = report
    }

    /// The default problem reporter: one line on standard error.
    public static let logToStandardError: @Sendable (GroupDefaultsProblem) -> Void = { problem in
        FileHandle.standardError.write(Data("simplex: \(problem)\n".utf8))
    }

    /// The current value of `key` (its default when unset or invalid).
    public subscript<Value>(key: GroupDefaultKey<Value>) -> Value {
        snapshot()[key]
    }

    /// All values as they are now.
    public func snapshot() -> GroupDefaultsValues {
        GroupDefaultsValues(raw: currentValues(), report: reportOnce)
    }

    /// Sets one key.
    public func set<Value>(_ key: GroupDefaultKey<Value>, _ value: Value) throws {
        try update { $0[key] = value }
    }

    /// Removes a stored value, so the key reads as its default.
    public func reset(_ key: GroupDefaultKeys) throws {
        try update { $0.remove(key) }
    }

    /// Read-modify-write of any number of keys, atomic with respect to every other process.
    @discardableResult
    public func update<R>(_ body: (inout GroupDefaultsValues) throws -> R) throws -> R {
        let lock = try FileLock(path: lockPath)
        defer { lock.unlock() }
        let bytes = try AtomicFile.read(path)
        let parsed = bytes.map(parse)
        if let bytes, parsed == .some(nil) {
            // Keep the unreadable file for the user instead of silently overwriting it.
            let backup = "\(path).corrupt"
            try AtomicFile.write(bytes, to: backup)
        }
        var values = GroupDefaultsValues(raw: (parsed ?? nil) ?? [:], report: reportOnce)
        let result = try body(&values)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let newBytes = [UInt8](try encoder.encode(values.raw))
        try AtomicFile.write(newBytes, to: path)
        cache.withLock { $0 = (newBytes, values.raw) }
        return result
    }

    private func currentValues() -> [String: JSONValue] {
        let bytes: [UInt8]?
        do {
            bytes = try AtomicFile.read(path)
        } catch {
            reportOnce(.unreadableFile(path: path, reason: error.description))
            return [:]
        }
        guard let bytes else { return [:] }
        if let cached = cache.withLock({ $0 }), cached.bytes == bytes { return cached.values }
        guard let values = parse(bytes) else { return [:] }
        cache.withLock { $0 = (bytes, values) }
        return values
    }

    /// The key/value object in `bytes`, or nil (reported) when it is not one.
    private func parse(_ bytes: [UInt8]) -> [String: JSONValue]? {
        do {
            return try JSONDecoder().decode([String: JSONValue].self, from: Data(bytes))
        } catch {
            reportOnce(.unreadableFile(path: path, reason: "not a JSON object of settings"))
            return nil
        }
    }

    private func reportOnce(_ problem: GroupDefaultsProblem) {
        let isNew = reported.withLock { $0.insert(problem).inserted }
        if isNew { report(problem) }
    }
}

/// The values of GroupDefaults at one moment; the `inout` argument of `GroupDefaults.update`.
public struct GroupDefaultsValues: Sendable {
    /// Stored JSON by key name, including keys this version does not know (kept on write).
    public private(set) var raw: [String: JSONValue]
    let report: @Sendable (GroupDefaultsProblem) -> Void

    public subscript<Value>(key: GroupDefaultKey<Value>) -> Value {
        get {
            guard let json = raw[key.name] else { return key.defaultValue }
            guard let value = Value(json: json) else {
                report(.invalidValue(key: key.name, value: json.description))
                return key.defaultValue
            }
            return value
        }
        set { raw[key.name] = newValue.json }
    }

    /// The stored JSON of `key` when valid, else its default.
    public func json(for key: GroupDefaultKeys) -> JSONValue {
        guard let json = raw[key.name] else { return key.defaultJSON }
        guard key.accepts(json) else {
            report(.invalidValue(key: key.name, value: json.description))
            return key.defaultJSON
        }
        return json
    }

    /// Whether `key` has a stored value.
    public func isSet(_ key: GroupDefaultKeys) -> Bool { raw[key.name] != nil }

    /// Stores the value a person typed; throws when the text is not a value of the key.
    public mutating func set(_ key: GroupDefaultKeys, text: String) throws(GroupDefaultsInputError) {
        guard let json = key.parse(text: text) else { throw .invalidValue(key: key, text: text) }
        raw[key.name] = json
    }

    public mutating func remove(_ key: GroupDefaultKeys) {
        raw[key.name] = nil
    }
}

/// Something wrong in `groupDefaults.json`, reported while the defaults are used instead.
public enum GroupDefaultsProblem: Hashable, Sendable, CustomStringConvertible {
    case unreadableFile(path: String, reason: String)
    case invalidValue(key: String, value: String)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            return "settings file \(path) is unreadable (\(reason)); using defaults, "
                + "the file is kept as \(path).corrupt on the next change"
        case .invalidValue(let key, let value):
            return "setting \(key) has an invalid value \(value); using its default"
        }
    }
}

/// A value typed by a person that does not fit the key.
public enum GroupDefaultsInputError: Error, Equatable, CustomStringConvertible {
    case unknownKey(String)
    case invalidValue(key: GroupDefaultKeys, text: String)

    public static func == (a: Self, b: Self) -> Bool { a.description == b.description }

    public var description: String {
        switch self {
        case .unknownKey(let name):
            return "unknown setting \(name): `simplex-chat defaults` lists them"
        case .invalidValue(let key, let text):
            if let choices = key.choices {
                return "invalid value '\(text)' for \(key.name): use one of \(choices.joined(separator: ", "))"
            }
            return "invalid value '\(text)' for \(key.name): expected \(key.defaultJSON.kindName)"
        }
    }
}

extension JSONValue {
    /// What kind of value this is, for messages.
    var kindName: String {
        switch self {
        case .null: return "a value or none"
        case .bool: return "true or false"
        case .int: return "a whole number"
        case .double: return "a number"
        case .string: return "text"
        case .array: return "a list"
        case .object: return "name=value pairs separated by commas"
        }
    }
}
