import SimpleXProtocol

/// Bytes written in JSON as padded base64url (SimpleX's `strEncode` of a `ByteString`).
public protocol Base64Bytes: Hashable, Sendable, CustomStringConvertible {
    var bytes: [UInt8] { get }
    init(bytes: [UInt8])
}

extension Base64Bytes {
    /// Decodes padded or unpadded base64url; nil when the text is not base64url.
    public init?(base64: String) {
        guard let bytes = Base64URL.decode(base64) else { return nil }
        self.init(bytes: bytes)
    }

    /// Padded base64url, as on the wire.
    public var base64: String { Base64URL.encode(bytes) }

    public var description: String { base64 }

    init(json: JSON, path: String) throws(ChatProtocolError) {
        let text = try JSONFields.string(json, path: path)
        guard let bytes = Base64URL.decode(text) else {
            throw .invalidValue(path: path, reason: "not base64url")
        }
        self.init(bytes: bytes)
    }

    var json: JSON { .string(base64) }
}

/// The id a message has in both chats (SimpleX `SharedMsgId`): 12 random bytes from the sender;
/// quotes, edits, deletions and reactions name the message by it.
public struct SharedMsgID: Base64Bytes, ChatJSONRepresentable {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The length of the ids this client makes.
    public static let length = 12

    /// A fresh id of `length` bytes from `generator` (injected so tests can fix ids).
    public static func random(using generator: inout some RandomNumberGenerator) -> SharedMsgID {
        SharedMsgID(bytes: (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

/// A group member's id, the same for every member of the group (SimpleX `MemberId`).
public struct MemberID: Base64Bytes, ChatJSONRepresentable {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// The id a contact request carries so that a repeated request is recognised (SimpleX `XContactId`).
public struct XContactID: Base64Bytes, ChatJSONRepresentable {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// A random probe sent to a contact to find out whether another contact is the same person
/// (`x.info.probe`, `x.info.probe.ok`).
public struct Probe: Base64Bytes, ChatJSONRepresentable {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// The hash of a probe, sent to the other contacts (`x.info.probe.check`).
public struct ProbeHash: Base64Bytes, ChatJSONRepresentable {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// A file's digest in a file invitation (SimpleX `FileDigest`).
public struct FileDigest: Base64Bytes, ChatJSONRepresentable {
    public let bytes: [UInt8]
    public init(bytes: [UInt8]) { self.bytes = bytes }
}
