internal import CSodium

// The libsodium calls the ratchet makes, on raw buffers the caller owns (guarded state or scratch
// on the stack), so a message costs no guarded allocation. Wrong sizes here are programming
// errors inside this module, hence preconditions; failures that input can cause are typed errors.

/// The KDFs of SimpleX's double ratchet (Ratchet.hs `rootKdf`, `chainKdf`, `x3dh`), HKDF-SHA512.
enum RatchetKDF {
    static let x3dhInfo: [UInt8] = Array("SimpleXX3DH".utf8)
    static let rootInfo: [UInt8] = Array("SimpleXRootRatchet".utf8)
    static let chainInfo: [UInt8] = Array("SimpleXChainRatchet".utf8)

    /// rootKdf output: RK' (32) ‖ CK (32) ‖ NHK (32).
    static let rootOutputCount = 96

    /// chainKdf output: CK' (32) ‖ MK (32) ‖ message nonce (24) ‖ header nonce (24).
    ///
    /// Deviation from SimpleX: its chainKdf takes 96 bytes, two 16-byte AES-GCM IVs after the keys;
    /// XChaCha20-Poly1305 needs 24-byte nonces, so we expand 112 bytes in the same order.
    static let chainOutputCount = 112
    static let chainKeyRange = 0..<32
    static let messageKeyRange = 32..<64
    static let messageNonceRange = 64..<88
    static let headerNonceRange = 88..<112
    /// Message key and message nonce, adjacent: what a skipped message key keeps.
    static let skippedKeyRange = 32..<88

    /// HKDF-SHA512(salt, ikm, info) into `output`; the 64-byte PRK lives on the stack and is wiped.
    static func derive(
        salt: UnsafeRawBufferPointer, inputKeyMaterial: UnsafeRawBufferPointer, info: [UInt8],
        into output: UnsafeMutableRawBufferPointer
    ) {
        withUnsafeTemporaryAllocation(byteCount: HMACSHA512.byteCount, alignment: 16) { prk in
            do {
                try HKDFSHA512.extract(inputKeyMaterial: inputKeyMaterial, salt: salt, into: prk)
                try info.withUnsafeBytes { infoBytes in
                    try HKDFSHA512.expand(
                        pseudoRandomKey: UnsafeRawBufferPointer(prk), info: infoBytes, into: output)
                }
            } catch {
                // The sizes are this module's constants: 64-byte PRK, 96 or 112 bytes of output.
                preconditionFailure("ratchet HKDF sizes are fixed: \(error)")
            }
            sodium_memzero(prk.baseAddress!, prk.count)
        }
    }

    /// rootKdf: HKDF-SHA512(salt = RK, ikm = DH output, "SimpleXRootRatchet") → RK', CK, NHK.
    static func root(
        rootKey: UnsafeRawBufferPointer, dhOutput: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) {
        precondition(output.count == rootOutputCount)
        derive(salt: rootKey, inputKeyMaterial: dhOutput, info: rootInfo, into: output)
    }

    /// chainKdf: HKDF-SHA512(salt = empty, ikm = CK, "SimpleXChainRatchet") → CK', MK, nonces.
    static func chain(chainKey: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count == chainOutputCount)
        derive(
            salt: UnsafeRawBufferPointer(start: nil, count: 0), inputKeyMaterial: chainKey, info: chainInfo,
            into: output)
    }
}

/// XChaCha20-Poly1305 in detached mode: SimpleX's layouts carry the tag apart from the ciphertext.
enum RatchetAEAD {
    static let tagCount = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)
    static let nonceCount = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    static let keyCount = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)

    /// Encrypts `plaintext` into `ciphertext` (same length; may be the same memory) and writes the tag.
    static func seal(
        _ plaintext: UnsafeRawBufferPointer, into ciphertext: UnsafeMutableRawBufferPointer,
        tag: UnsafeMutableRawBufferPointer, associatedData: UnsafeRawBufferPointer,
        nonce: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer
    ) {
        precondition(ciphertext.count == plaintext.count && tag.count == tagCount)
        precondition(nonce.count == nonceCount && key.count == keyCount)
        // Only fails for messages beyond 2^64 bytes.
        _ = crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
            ciphertext.bytes!, tag.bytes!, nil, plaintext.bytes, UInt64(plaintext.count),
            associatedData.bytes, UInt64(associatedData.count), nil, nonce.bytes!, key.bytes!)
    }

    /// Verifies and decrypts `ciphertext` into `plaintext` (same length); false when it does not authenticate.
    static func open(
        _ ciphertext: UnsafeRawBufferPointer, into plaintext: UnsafeMutableRawBufferPointer,
        tag: UnsafeRawBufferPointer, associatedData: UnsafeRawBufferPointer,
        nonce: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer
    ) -> Bool {
        precondition(ciphertext.count == plaintext.count && tag.count == tagCount)
        precondition(nonce.count == nonceCount && key.count == keyCount)
        return withNonNullOutput(plaintext) { output in
            withNonNullInput(ciphertext) { input in
                crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
                    output, nil, input, UInt64(ciphertext.count), tag.bytes!,
                    associatedData.bytes, UInt64(associatedData.count), nonce.bytes!, key.bytes!) == 0
            }
        }
    }
}

/// X25519 on raw buffers, for the DH ratchet step and X3DH.
enum RatchetDH {
    static let keyCount = 32

    /// DH(private, public) into `output`; throws `invalidPublicKey` for a low-order public key.
    static func agree(
        privateKey: UnsafeRawBufferPointer, publicKey: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(RatchetError) {
        guard publicKey.count == keyCount else { throw .invalidPublicKey }
        precondition(privateKey.count == keyCount && output.count == keyCount)
        guard crypto_scalarmult_curve25519(output.bytes!, privateKey.bytes!, publicKey.bytes!) == 0 else {
            throw .invalidPublicKey
        }
    }

    /// Fills `privateKey` with a random scalar and returns its public key.
    static func generate(into privateKey: UnsafeMutableRawBufferPointer) -> [UInt8] {
        precondition(privateKey.count == keyCount)
        Sodium.requireInitialized()
        randombytes_buf(privateKey.baseAddress!, keyCount)
        return publicKey(of: UnsafeRawBufferPointer(privateKey))
    }

    /// The public key of a 32-byte scalar (clamped by libsodium, so it cannot fail).
    static func publicKey(of privateKey: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: keyCount) { out, initialized in
            _ = crypto_scalarmult_curve25519_base(out.baseAddress!, privateKey.bytes!)
            initialized = keyCount
        }
    }
}
