internal import CSodium

extension SHA512 {
    /// SHA-512 over data given in pieces (`crypto_hash_sha512_init/update/final`), for files
    /// too large to hold in memory at once.
    public struct Hasher: ~Copyable {
        private var state = crypto_hash_sha512_state()

        public init() {
            Sodium.requireInitialized()
            _ = crypto_hash_sha512_init(&state)
        }

        /// Adds the next piece.
        public mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            _ = crypto_hash_sha512_update(
                &state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
        }

        /// Adds the next piece.
        public mutating func update(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { update($0) }
        }

        /// The 64-byte digest of everything added; the hasher is used up.
        public consuming func finalize() -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: SHA512.byteCount) { out, initialized in
                _ = crypto_hash_sha512_final(&state, out.baseAddress!)
                initialized = SHA512.byteCount
            }
        }
    }
}
