public import SimpleXCrypto

/// A relay's long-term Ed25519 identity, which replaces SimpleX's TLS certificate (DESIGN.md §5).
///
/// Clients know it by its `fingerprint`, the `keyHash` in `smp://<keyHash>@host:port`.
public struct ServerIdentity: Sendable {
    /// The Ed25519 key pair; the secret key stays in guarded memory.
    public let keyPair: Ed25519.KeyPair

    /// SHA-256 of the identity public key's X.509 SubjectPublicKeyInfo DER (44 bytes:
    /// `302a300506032b6570032100` ‖ key), the way SimpleX hashes its certificate's key; 32 bytes.
    public let fingerprint: [UInt8]

    /// The 32-byte Ed25519 public key.
    public var publicKey: [UInt8] { keyPair.publicKey }

    /// A fresh random identity.
    public static func generate() -> ServerIdentity {
        ServerIdentity(keyPair: Ed25519.generateKeyPair())
    }

    /// The identity for a stored 32-byte seed (`seed` of an earlier identity).
    public init(seed: SecureBytes) throws {
        self.init(keyPair: try Ed25519.keyPair(fromSeed: seed))
    }

    private init(keyPair: Ed25519.KeyPair) {
        self.keyPair = keyPair
        fingerprint = Self.fingerprint(ofIdentityKey: keyPair.publicKey)
    }

    /// The 32-byte seed to persist; libsodium's secret key is the seed followed by the public key.
    public var seed: SecureBytes {
        SecureBytes(count: Ed25519.seedCount) { out in
            keyPair.secretKey.withUnsafeBytes { secret in
                out.copyMemory(from: UnsafeRawBufferPointer(rebasing: secret[0..<Ed25519.seedCount]))
            }
        }
    }

    /// SHA-256 of the SPKI DER of a raw 32-byte Ed25519 key.
    public static func fingerprint(ofIdentityKey key: [UInt8]) -> [UInt8] {
        SHA256.hash(PublicKeyAlgorithm.ed25519.spkiPrefix + key)
    }
}
