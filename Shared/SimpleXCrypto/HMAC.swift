public import Foundation
internal import CSodium

/// An HMAC that HKDF can be built on: one-shot MAC over a list of message parts into a caller's buffer.
protocol HMACFunction {
    /// MAC (and hash) length in bytes.
    static var byteCount: Int { get }
    /// Writes HMAC(key, parts joined) into `out` (exactly `byteCount` bytes); wipes its state.
    static func authenticate(
        parts: [UnsafeRawBufferPointer], key: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer)
}

/// HMAC-SHA-256 with a key of any length (`crypto_auth_hmacsha256_init/update/final`).
public enum HMACSHA256: HMACFunction {
    /// MAC length in bytes.
    public static let byteCount = 32

    /// Returns HMAC-SHA-256 of `message` under `key`.
    public static func authenticate(_ message: some ContiguousBytes, key: some ContiguousBytes) -> [UInt8] {
        macBytes(Self.self, message: message, key: key)
    }

    /// Checks `mac` against `message` and `key` in constant time.
    public static func isValidAuthenticationCode(
        _ mac: [UInt8], for message: some ContiguousBytes, key: some ContiguousBytes
    ) -> Bool {
        isValidMac(Self.self, mac, message: message, key: key)
    }

    static func authenticate(
        parts: [UnsafeRawBufferPointer], key: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
    ) {
        precondition(out.count == byteCount)
        Sodium.requireInitialized()
        var state = crypto_auth_hmacsha256_state()
        withNonNullInput(key) { _ = crypto_auth_hmacsha256_init(&state, $0, key.count) }
        for part in parts {
            _ = crypto_auth_hmacsha256_update(
                &state, part.bytes, UInt64(part.count))
        }
        _ = crypto_auth_hmacsha256_final(&state, out.bytes!)
        // The state holds key-derived pads: wipe it.
        withUnsafeMutableBytes(of: &state) { sodium_memzero($0.baseAddress!, $0.count) }
    }
}

/// HMAC-SHA-512 with a key of any length (`crypto_auth_hmacsha512_init/update/final`).
public enum HMACSHA512: HMACFunction {
    /// MAC length in bytes.
    public static let byteCount = 64

    /// Returns HMAC-SHA-512 of `message` under `key`.
    public static func authenticate(_ message: some ContiguousBytes, key: some ContiguousBytes) -> [UInt8] {
        macBytes(Self.self, message: message, key: key)
    }

    /// Checks `mac` against `message` and `key` in constant time.
    public static func isValidAuthenticationCode(
        _ mac: [UInt8], for message: some ContiguousBytes, key: some ContiguousBytes
    ) -> Bool {
        isValidMac(Self.self, mac, message: message, key: key)
    }

    /// Allocation-free HMAC-SHA-512 of `message` into `output`, which must be exactly 64 bytes.
    public static func authenticate(
        _ message: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        guard output.count == byteCount else {
            throw .invalidParameters("HMAC-SHA-512 output must be \(byteCount) bytes, got \(output.count)")
        }
        authenticate(parts: [message], key: key, into: output)
    }

    static func authenticate(
        parts: [UnsafeRawBufferPointer], key: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer
    ) {
        precondition(out.count == byteCount)
        Sodium.requireInitialized()
        var state = crypto_auth_hmacsha512_state()
        withNonNullInput(key) { _ = crypto_auth_hmacsha512_init(&state, $0, key.count) }
        for part in parts {
            _ = crypto_auth_hmacsha512_update(
                &state, part.bytes, UInt64(part.count))
        }
        _ = crypto_auth_hmacsha512_final(&state, out.bytes!)
        withUnsafeMutableBytes(of: &state) { sodium_memzero($0.baseAddress!, $0.count) }
    }
}

private func macBytes<H: HMACFunction>(
    _: H.Type, message: some ContiguousBytes, key: some ContiguousBytes
) -> [UInt8] {
    key.withUnsafeBytes { keyBytes in
        message.withUnsafeBytes { messageBytes in
            [UInt8](unsafeUninitializedCapacity: H.byteCount) { out, initialized in
                H.authenticate(parts: [messageBytes], key: keyBytes, into: UnsafeMutableRawBufferPointer(out))
                initialized = H.byteCount
            }
        }
    }
}

private func isValidMac<H: HMACFunction>(
    _: H.Type, _ mac: [UInt8], message: some ContiguousBytes, key: some ContiguousBytes
) -> Bool {
    guard mac.count == H.byteCount else { return false }
    let expected = SecureBytes(count: H.byteCount) { out in
        key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                H.authenticate(parts: [messageBytes], key: keyBytes, into: out)
            }
        }
    }
    return expected.withUnsafeBytes { expectedBytes in
        mac.withUnsafeBytes { constantTimeEqual($0, expectedBytes) }
    }
}
