internal import CSodium

/// Cryptographically secure random bytes from libsodium (`randombytes_buf`).
public enum Random {
    /// Returns `count` random bytes.
    public static func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0, "Random.bytes count must not be negative")
        Sodium.requireInitialized()
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            if let base = buffer.baseAddress { randombytes_buf(base, count) }
            initializedCount = count
        }
    }

    /// Fills `buffer` with random bytes, for callers that must not allocate.
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        Sodium.requireInitialized()
        if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
    }
}
