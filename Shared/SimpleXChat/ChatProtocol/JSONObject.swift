/// A JSON object whose members keep the order they were read or built in, repeated keys included,
/// so that an object from the wire is written back unchanged.
public struct JSONObject: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One key and its value.
    public struct Member: Hashable, Sendable {
        public var key: String
        public var value: JSON

        public init(key: String, value: JSON) {
            self.key = key
            self.value = value
        }
    }

    /// The members in order.
    public private(set) var members: [Member]

    /// An empty object.
    public init() { members = [] }

    /// An object with these members, in this order.
    public init(_ pairs: some Sequence<(String, JSON)>) {
        members = pairs.map { Member(key: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements)
    }

    /// An object with the present (non-nil) members in key order: the order SimpleX's core writes
    /// every object it builds (aeson's `KeyMap` is an ordered map, compared by UTF-8 bytes).
    public static func sorted(_ pairs: [(String, JSON?)]) -> JSONObject {
        let present = pairs.compactMap { pair in pair.1.map { (pair.0, $0) } }
        return JSONObject(present.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) })
    }

    /// The value of `key` (the last member with that key, as aeson reads a repeated key).
    /// Setting replaces that member in place, or appends one; setting nil removes every member
    /// with the key.
    public subscript(key: String) -> JSON? {
        get { members.last { $0.key == key }?.value }
        set {
            guard let newValue else {
                members.removeAll { $0.key == key }
                return
            }
            if let index = members.lastIndex(where: { $0.key == key }) {
                members[index].value = newValue
            } else {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// The keys in order (repeated keys repeat).
    public var keys: [String] { members.map(\.key) }

    public var count: Int { members.count }

    public var isEmpty: Bool { members.isEmpty }

    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    /// This object with its members, and those of every nested object, in key order.
    public func sortedRecursively() -> JSONObject {
        JSONObject.sorted(members.map { ($0.key, $0.value.sortedRecursively()) })
    }
}

extension JSON {
    /// This value with the members of every object in key order.
    public func sortedRecursively() -> JSON {
        switch self {
        case .object(let object): return .object(object.sortedRecursively())
        case .array(let elements): return .array(elements.map { $0.sortedRecursively() })
        default: return self
        }
    }
}
