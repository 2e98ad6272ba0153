/// Why a transport handshake or block failed. Every case ends the connection: after a failed
/// block the encryption chains are out of step, so nothing later on that connection can be read.
public enum TransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server's identity key is not the one in the address (`keyHash`), or the client asked
    /// for another server's identity.
    case identityMismatch
    /// The server hello's session key is not signed by its identity key.
    case badSignature
    /// No protocol version both sides support.
    case incompatibleVersion(peer: TransportVersionRange, supported: TransportVersionRange)
    /// A handshake block that cannot be read, or a key that cannot be used.
    case malformed(ProtocolError)
    /// A block did not decrypt under the next key of the chain: wrong, replayed, reordered,
    /// dropped or tampered.
    case blockAuthentication
    /// A block or padded block of the wrong length.
    case blockSize(expected: Int, actual: Int)

    public var description: String {
        switch self {
        case .identityMismatch:
            return "server identity does not match the address's key hash"
        case .badSignature:
            return "server session key is not signed by the server identity"
        case .incompatibleVersion(let peer, let supported):
            return "incompatible transport version: peer offers \(peer), we support \(supported)"
        case .malformed(let error):
            return "malformed handshake: \(error)"
        case .blockAuthentication:
            return "block failed authentication (wrong, replayed, reordered or tampered)"
        case .blockSize(let expected, let actual):
            return "block of \(actual) bytes, expected \(expected)"
        }
    }
}
