/// Public keys as SimpleX sends them: X.509 SubjectPublicKeyInfo DER (44 bytes for the
/// 32-byte X25519 and Ed25519 keys), inside a short string.
public enum PublicKeyAlgorithm: Sendable, Equatable, CustomStringConvertible {
    case x25519, ed25519

    /// The DER prefix before the 32 key bytes.
    var spkiPrefix: [UInt8] {
        switch self {
        case .x25519: return [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00]
        case .ed25519: return [0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]
        }
    }

    public var description: String { self == .x25519 ? "X25519" : "Ed25519" }

    /// The SPKI DER of a raw 32-byte key.
    public func spki(_ raw: [UInt8]) throws(ProtocolError) -> [UInt8] {
        guard raw.count == 32 else { throw .invalid("\(self) key of \(raw.count) bytes") }
        return spkiPrefix + raw
    }

    /// The raw key in an SPKI DER; a key of another algorithm (X448, Ed448, RSA ...) is invalid.
    public func raw(fromSPKI der: [UInt8]) throws(ProtocolError) -> [UInt8] {
        guard der.count == 44, der.starts(with: spkiPrefix) else {
            throw .invalid("\(self) public key (an unsupported key type or a malformed key)")
        }
        return Array(der[12...])
    }
}

extension ByteWriter {
    /// A public key as a short string of its SPKI DER.
    public mutating func appendPublicKey(_ raw: [UInt8], _ algorithm: PublicKeyAlgorithm) throws(ProtocolError) {
        try appendShortString(algorithm.spki(raw))
    }
}

extension ByteReader {
    public mutating func readPublicKey(_ algorithm: PublicKeyAlgorithm) throws(ProtocolError) -> [UInt8] {
        try algorithm.raw(fromSPKI: readShortString("\(algorithm) public key"))
    }
}
