internal import CSodium

extension SecretBox {
    /// Allocation-free `seal` with the key, nonce and message as raw buffers (the key in a guarded
    /// buffer the caller keeps, such as a `SecureBuffer`); writes `macCount + message.count` bytes
    /// at the start of `output` and returns that count. `output` may be the message's own memory.
    @discardableResult
    public static func seal(
        _ message: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) -> Int {
        try checkRaw(nonce: nonce, key: key)
        guard output.count >= message.count + macCount else {
            throw .invalidParameters("secretbox output needs \(message.count + macCount) bytes, got \(output.count)")
        }
        let status = crypto_secretbox_easy(
            output.bytes!, message.bytes, UInt64(message.count), nonce.bytes!, key.bytes!)
        guard status == 0 else { throw .invalidParameters("message too long for secretbox") }
        return message.count + macCount
    }

    /// Allocation-free `open` with raw buffers; writes `box.count - macCount` bytes at the start of
    /// `output` and returns that count. Throws `authenticationFailed` for a wrong key or nonce or
    /// tampered data, in which case `output` holds nothing meaningful.
    @discardableResult
    public static func open(
        _ box: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) -> Int {
        try checkRaw(nonce: nonce, key: key)
        guard box.count >= macCount else { throw .authenticationFailed }
        guard output.count >= box.count - macCount else {
            throw .invalidParameters("secretbox output needs \(box.count - macCount) bytes, got \(output.count)")
        }
        let status = withNonNullOutput(output) { out in
            crypto_secretbox_open_easy(out, box.bytes!, UInt64(box.count), nonce.bytes!, key.bytes!)
        }
        guard status == 0 else { throw .authenticationFailed }
        return box.count - macCount
    }

    private static func checkRaw(nonce: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) throws(CryptoError) {
        do { try Sodium.initialize() } catch { throw .sodiumInitFailed }
        try CryptoError.checkKey(key.count, expected: keyCount)
        try CryptoError.checkNonce(nonce.count, expected: nonceCount)
    }
}

extension CryptoBox {
    /// Bytes of a precomputed key (`crypto_box_beforenm`'s output).
    public static let precomputedKeyCount = Int(crypto_box_BEFORENMBYTES)

    /// Allocation-free `crypto_box_easy_afternm` with a precomputed key held by the caller (the
    /// relay keeps each queue's in its store); writes `macCount + message.count` bytes at the start
    /// of `output` and returns that count.
    @discardableResult
    public static func seal(
        _ message: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, precomputedKey: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) -> Int {
        try checkRaw(nonce: nonce, key: precomputedKey)
        guard output.count >= message.count + macCount else {
            throw .invalidParameters("crypto_box output needs \(message.count + macCount) bytes, got \(output.count)")
        }
        let status = crypto_box_easy_afternm(
            output.bytes!, message.bytes, UInt64(message.count), nonce.bytes!, precomputedKey.bytes!)
        guard status == 0 else { throw .invalidParameters("message too long for crypto_box") }
        return message.count + macCount
    }

    /// Allocation-free `crypto_box_open_easy_afternm` with a precomputed key held by the caller;
    /// throws `authenticationFailed` for a wrong key or nonce or tampered data.
    @discardableResult
    public static func open(
        _ box: UnsafeRawBufferPointer, nonce: UnsafeRawBufferPointer, precomputedKey: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) -> Int {
        try checkRaw(nonce: nonce, key: precomputedKey)
        guard box.count >= macCount else { throw .authenticationFailed }
        guard output.count >= box.count - macCount else {
            throw .invalidParameters("crypto_box output needs \(box.count - macCount) bytes, got \(output.count)")
        }
        let status = withNonNullOutput(output) { out in
            crypto_box_open_easy_afternm(out, box.bytes!, UInt64(box.count), nonce.bytes!, precomputedKey.bytes!)
        }
        guard status == 0 else { throw .authenticationFailed }
        return box.count - macCount
    }

    private static func checkRaw(nonce: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) throws(CryptoError) {
        do { try Sodium.initialize() } catch { throw .sodiumInitFailed }
        try CryptoError.checkKey(key.count, expected: precomputedKeyCount)
        try CryptoError.checkNonce(nonce.count, expected: nonceCount)
    }
}
