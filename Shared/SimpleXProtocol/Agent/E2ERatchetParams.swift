/// One side's X3DH keys for the double ratchet, at one agreed e2e version (simplexmq `Crypto/Ratchet.hs`
/// `E2ERatchetParams`): in confirmations (`'C'`) and ratchet re-sync (`'R'`) envelopes.
///
/// Binary: version (Word16) · key1 · key2, each key a short string of its X25519 SPKI DER. SimpleX
/// appends a post-quantum KEM (`Maybe`) from its e2e version 3; our e2e versions have no KEM.
public struct E2ERatchetParams: Hashable, Sendable {
    /// The e2e version the sender chose from the peer's range.
    public let version: UInt16
    /// The first raw 32-byte X25519 public key.
    public let key1: [UInt8]
    /// The second raw 32-byte X25519 public key.
    public let key2: [UInt8]

    /// Params at one version; keys other than 32 bytes are invalid.
    public init(version: UInt16, key1: [UInt8], key2: [UInt8]) throws(ProtocolError) {
        guard key1.count == 32, key2.count == 32 else {
            throw .invalid("ratchet keys of \(key1.count) and \(key2.count) bytes (expected 32)")
        }
        self.version = version
        self.key1 = key1
        self.key2 = key2
    }

    /// Appends version and keys.
    public func encode(to writer: inout ByteWriter) throws(ProtocolError) {
        writer.appendWord16(version)
        try writer.appendPublicKey(key1, .x25519)
        try writer.appendPublicKey(key2, .x25519)
    }

    /// The encoded params.
    public func encoded() throws(ProtocolError) -> [UInt8] {
        var writer = ByteWriter(capacity: 92)
        try encode(to: &writer)
        return writer.bytes
    }

    /// Reads version and keys; an X448 key (SimpleX's) is invalid.
    public static func decode(_ reader: inout ByteReader) throws(ProtocolError) -> E2ERatchetParams {
        let version = try reader.readWord16("e2e version")
        let key1 = try reader.readRatchetKey()
        let key2 = try reader.readRatchetKey()
        return try E2ERatchetParams(version: version, key1: key1, key2: key2)
    }

    /// Reads params from all of `bytes`.
    public static func decode(_ bytes: [UInt8]) throws(ProtocolError) -> E2ERatchetParams {
        var reader = ByteReader(bytes)
        let params = try decode(&reader)
        try reader.expectEnd("e2e ratchet params")
        return params
    }
}

/// The X3DH keys an invitation link offers, with the e2e versions the inviter supports (simplexmq
/// `E2ERatchetParamsUri`): `v=<range>&x3dh=<key1>,<key2>`, keys in base64url SPKI, not escaped
/// (the link escapes the whole value once more).
public struct E2ERatchetParamsURI: Hashable, Sendable, CustomStringConvertible {
    /// The e2e versions the inviter supports.
    public let versionRange: VersionRange
    /// The first raw 32-byte X25519 public key.
    public let key1: [UInt8]
    /// The second raw 32-byte X25519 public key.
    public let key2: [UInt8]

    /// Params for a link; keys other than 32 bytes are invalid.
    public init(versionRange: VersionRange, key1: [UInt8], key2: [UInt8]) throws(ProtocolError) {
        guard key1.count == 32, key2.count == 32 else {
            throw .invalid("ratchet keys of \(key1.count) and \(key2.count) bytes (expected 32)")
        }
        self.versionRange = versionRange
        self.key1 = key1
        self.key2 = key2
    }

    /// Parses `v=...&x3dh=k1,k2`; unknown parameters (SimpleX's `kem_key`, `kem_ct`) are ignored.
    /// Errors name the link parameter `e2e`. Versions are not checked here (see `ConnectionLink`).
    public init(_ text: some StringProtocol) throws(ConnectionLinkError) {
        let query = try LinkQuery(parsing: text)
        let versionText = try query.required("v")
        let range: VersionRange
        do {
            range = try VersionRange(text: versionText)
        } catch {
            throw .invalidParameter(name: "e2e", reason: "version range \(versionText.debugDescription)")
        }
        let keys = try query.required("x3dh").split(separator: ",", omittingEmptySubsequences: false)
        guard keys.count == 2 else {
            throw .invalidParameter(name: "e2e", reason: "x3dh has \(keys.count) keys (expected 2)")
        }
        let key1 = try LinkKey.x25519(String(keys[0]), parameter: "e2e")
        let key2 = try LinkKey.x25519(String(keys[1]), parameter: "e2e")
        versionRange = range
        self.key1 = key1
        self.key2 = key2
    }

    /// `v=<range>&x3dh=<key1>,<key2>`.
    public var description: String {
        LinkQuery(pairs: [
            ("v", versionRange.description), ("x3dh", "\(LinkKey.text(key1)),\(LinkKey.text(key2))"),
        ]).rendered(escaping: false)
    }

    /// The params at the highest e2e version both sides support, or nil when they share none.
    public func params(supported: VersionRange = AgentVersions.e2e) -> E2ERatchetParams? {
        guard let common = versionRange.intersection(supported) else { return nil }
        return E2ERatchetParams(version: common.max, checkedKey1: key1, key2: key2)
    }
}

extension E2ERatchetParams {
    /// Keys already checked by `E2ERatchetParamsURI`.
    fileprivate init(version: UInt16, checkedKey1 key1: [UInt8], key2: [UInt8]) {
        self.version = version
        self.key1 = key1
        self.key2 = key2
    }
}

extension ByteReader {
    /// An X25519 key in SPKI; SimpleX's X448 ratchet keys get an error that says so.
    mutating func readRatchetKey() throws(ProtocolError) -> [UInt8] {
        let der = try readShortString("ratchet public key")
        if let algorithm = LinkKey.unsupportedAlgorithm(der) {
            throw .invalid("ratchet public key: \(algorithm) keys are not supported, only X25519")
        }
        return try PublicKeyAlgorithm.x25519.raw(fromSPKI: der)
    }
}
