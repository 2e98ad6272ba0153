public import Foundation
internal import CSodium

/// SHA-256 (`crypto_hash_sha256`).
public enum SHA256 {
    /// Digest length in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte digest of `data`.
    public static func hash(_ data: some ContiguousBytes) -> [UInt8] {
        Sodium.requireInitialized()
        return data.withUnsafeBytes { input in
            [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
                _ = crypto_hash_sha256(
                    out.baseAddress!, input.bytes,
                    UInt64(input.count))
                initialized = byteCount
            }
        }
    }
}

/// SHA-512 (`crypto_hash_sha512`).
public enum SHA512 {
    /// Digest length in bytes.
    public static let byteCount = 64

    /// Returns the 64-byte digest of `data`.
    public static func hash(_ data: some ContiguousBytes) -> [UInt8] {
        Sodium.requireInitialized()
        return data.withUnsafeBytes { input in
            [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
                _ = crypto_hash_sha512(
                    out.baseAddress!, input.bytes,
                    UInt64(input.count))
                initialized = byteCount
            }
        }
    }
}
