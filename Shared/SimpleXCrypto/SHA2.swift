public import Foundation
internal import CSHA256
internal import CSodium

/// SHA-256: on the CPU's SHA extensions where it has them (CSHA256), else `crypto_hash_sha256`.
/// libsodium's portable code takes 5-7× as long (16 KB: 53-80 µs here, ~11 µs on the extensions);
/// the agent hashes every received client message (up to 16 KB) and every agent message.
public enum SHA256 {
    /// Digest length in bytes.
    public static let byteCount = 32

    /// Returns the 32-byte digest of `data`.
    public static func hash(_ data: some ContiguousBytes) -> [UInt8] {
        data.withUnsafeBytes { input in
            [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
                if csha256_hardware(out.baseAddress!, input.bytes, input.count) == 0 {
                    Sodium.requireInitialized()
                    _ = crypto_hash_sha256(out.baseAddress!, input.bytes, UInt64(input.count))
                }
                initialized = byteCount
            }
        }
    }

    /// Whether `hash` runs on the CPU's SHA extensions here.
    public static var usesHardware: Bool { csha256_hardware_available() != 0 }

    /// libsodium's digest, whatever the CPU has: what `hash` must equal (tests, bench).
    public static func portableHash(_ data: some ContiguousBytes) -> [UInt8] {
        Sodium.requireInitialized()
        return data.withUnsafeBytes { input in
            [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
                _ = crypto_hash_sha256(out.baseAddress!, input.bytes, UInt64(input.count))
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
