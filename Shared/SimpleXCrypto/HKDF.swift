public import Foundation
internal import CSodium

/// HKDF with HMAC-SHA-512 (RFC 5869); libsodium 1.0.18 has no HKDF, so it is built on `HMACSHA512`.
public enum HKDFSHA512 {
    /// Largest output `expand` can produce: 255 blocks of 64 bytes.
    public static let maximumOutputByteCount = 255 * HMACSHA512.byteCount

    /// Extract then expand: `outputByteCount` bytes of key material.
    public static func deriveKey(
        inputKeyMaterial: some ContiguousBytes, salt: some ContiguousBytes, info: some ContiguousBytes,
        outputByteCount: Int
    ) throws -> SecureBytes {
        try HKDF<HMACSHA512>.deriveKey(
            inputKeyMaterial: inputKeyMaterial, salt: salt, info: info, outputByteCount: outputByteCount)
    }

    /// The extract step: PRK = HMAC(salt, IKM), 64 bytes; an empty salt means 64 zero bytes.
    public static func extract(inputKeyMaterial: some ContiguousBytes, salt: some ContiguousBytes)
        -> SecureBytes
    {
        HKDF<HMACSHA512>.extract(inputKeyMaterial: inputKeyMaterial, salt: salt)
    }

    /// The expand step: `outputByteCount` bytes from a pseudorandom key of at least 64 bytes.
    public static func expand(
        pseudoRandomKey: some ContiguousBytes, info: some ContiguousBytes, outputByteCount: Int
    ) throws -> SecureBytes {
        try HKDF<HMACSHA512>.expand(
            pseudoRandomKey: pseudoRandomKey, info: info, outputByteCount: outputByteCount)
    }
}

extension HKDFSHA512 {
    /// Allocation-free extract into `output`, exactly 64 bytes (a guarded buffer the caller reuses).
    public static func extract(
        inputKeyMaterial: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        try HKDF<HMACSHA512>.extract(inputKeyMaterial, salt: salt, into: output)
    }

    /// Allocation-free expand filling all of `output` (1...16,320 bytes) from a key of at least 64 bytes.
    public static func expand(
        pseudoRandomKey: UnsafeRawBufferPointer, info: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        try HKDF<HMACSHA512>.expand(pseudoRandomKey, info: info, into: output)
    }
}

/// HKDF with HMAC-SHA-256 (RFC 5869), the variant the RFC's test cases 1–3 use.
public enum HKDFSHA256 {
    /// Largest output `expand` can produce: 255 blocks of 32 bytes.
    public static let maximumOutputByteCount = 255 * HMACSHA256.byteCount

    /// Extract then expand: `outputByteCount` bytes of key material.
    public static func deriveKey(
        inputKeyMaterial: some ContiguousBytes, salt: some ContiguousBytes, info: some ContiguousBytes,
        outputByteCount: Int
    ) throws -> SecureBytes {
        try HKDF<HMACSHA256>.deriveKey(
            inputKeyMaterial: inputKeyMaterial, salt: salt, info: info, outputByteCount: outputByteCount)
    }

    /// The extract step: PRK = HMAC(salt, IKM), 32 bytes; an empty salt means 32 zero bytes.
    public static func extract(inputKeyMaterial: some ContiguousBytes, salt: some ContiguousBytes)
        -> SecureBytes
    {
        HKDF<HMACSHA256>.extract(inputKeyMaterial: inputKeyMaterial, salt: salt)
    }

    /// The expand step: `outputByteCount` bytes from a pseudorandom key of at least 32 bytes.
    public static func expand(
        pseudoRandomKey: some ContiguousBytes, info: some ContiguousBytes, outputByteCount: Int
    ) throws -> SecureBytes {
        try HKDF<HMACSHA256>.expand(
            pseudoRandomKey: pseudoRandomKey, info: info, outputByteCount: outputByteCount)
    }
}

/// The RFC 5869 construction, shared by both hash choices.
enum HKDF<H: HMACFunction> {
    static func deriveKey(
        inputKeyMaterial: some ContiguousBytes, salt: some ContiguousBytes, info: some ContiguousBytes,
        outputByteCount: Int
    ) throws -> SecureBytes {
        try checkOutputCount(outputByteCount)
        let prk = extract(inputKeyMaterial: inputKeyMaterial, salt: salt)
        return try expand(pseudoRandomKey: prk, info: info, outputByteCount: outputByteCount)
    }

    static func extract(inputKeyMaterial: some ContiguousBytes, salt: some ContiguousBytes) -> SecureBytes {
        SecureBytes(count: H.byteCount) { prk in
            inputKeyMaterial.withUnsafeBytes { ikm in
                salt.withUnsafeBytes { saltBytes in extractUnchecked(ikm, salt: saltBytes, into: prk) }
            }
        }
    }

    static func expand(
        pseudoRandomKey: some ContiguousBytes, info: some ContiguousBytes, outputByteCount: Int
    ) throws -> SecureBytes {
        try checkOutputCount(outputByteCount)
        return try SecureBytes(count: outputByteCount) { output in
            try pseudoRandomKey.withUnsafeBytes { prk in
                try info.withUnsafeBytes { infoBytes in try expand(prk, info: infoBytes, into: output) }
            }
        }
    }

    /// Allocation-free extract into `output`, which must be exactly `H.byteCount` bytes.
    static func extract(
        _ inputKeyMaterial: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        guard output.count == H.byteCount else {
            throw .invalidParameters("HKDF extract output must be \(H.byteCount) bytes, got \(output.count)")
        }
        extractUnchecked(inputKeyMaterial, salt: salt, into: output)
    }

    private static func extractUnchecked(
        _ ikm: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer, into prk: UnsafeMutableRawBufferPointer
    ) {
        if salt.isEmpty {
            // RFC 5869 §2.2: a missing salt is HashLen zeros. HMAC pads short keys with zeros
            // anyway, so this only makes the rule explicit.
            withUnsafeTemporaryAllocation(byteCount: H.byteCount, alignment: 8) { zeros in
                zeros.initializeMemory(as: UInt8.self, repeating: 0)
                H.authenticate(parts: [ikm], key: UnsafeRawBufferPointer(zeros), into: prk)
            }
        } else {
            H.authenticate(parts: [ikm], key: salt, into: prk)
        }
    }

    /// Allocation-free expand filling all of `output` (1...255 × `H.byteCount` bytes).
    static func expand(
        _ prk: UnsafeRawBufferPointer, info infoBytes: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        try checkOutputCount(output.count)
        guard prk.count >= H.byteCount else {
            throw .invalidKeySize(expected: H.byteCount, actual: prk.count)
        }
        let outputByteCount = output.count
        // T(1) = HMAC(PRK, info | 0x01); T(i) = HMAC(PRK, T(i-1) | info | i). Full blocks are
        // written straight into the output, so T(i-1) is read back from there; only a final
        // partial block goes through a scratch block on the stack, wiped before it is released
        // (like the HMAC state, which is on the stack too).
        var offset = 0
        var counter: UInt8 = 1
        while offset < outputByteCount {
            let previous = UnsafeRawBufferPointer(rebasing: output[max(0, offset - H.byteCount)..<offset])
            let take = min(H.byteCount, outputByteCount - offset)
            withUnsafeBytes(of: counter) { counterByte in
                let parts = [previous, infoBytes, counterByte]
                if take == H.byteCount {
                    let block = UnsafeMutableRawBufferPointer(rebasing: output[offset..<offset + H.byteCount])
                    H.authenticate(parts: parts, key: prk, into: block)
                } else {
                    withUnsafeTemporaryAllocation(byteCount: H.byteCount, alignment: 8) { block in
                        H.authenticate(parts: parts, key: prk, into: block)
                        output.baseAddress!.advanced(by: offset).copyMemory(
                            from: block.baseAddress!, byteCount: take)
                        sodium_memzero(block.baseAddress!, block.count)
                    }
                }
            }
            offset += take
            counter &+= 1
        }
    }

    private static func checkOutputCount(_ count: Int) throws(CryptoError) {
        guard count > 0, count <= 255 * H.byteCount else {
            throw CryptoError.invalidParameters(
                "HKDF output must be 1...\(255 * H.byteCount) bytes, got \(count)")
        }
    }
}

extension HKDFSHA512 {
    /// Extract with an empty salt, then expand to exactly 128 bytes (two HMAC blocks): the same
    /// bytes as `extract` + `expand`, for a step of a key chain that runs once per message block.
    /// HMAC hashes its key's two padded blocks before any message: here that is done once for
    /// the empty salt (a constant) and once for the PRK, shared by both expand blocks — 8 SHA-512
    /// compressions a step instead of 12. `prk` (64 bytes) is the caller's scratch, like `output`.
    public static func extractAndExpandTwoBlocks(
        inputKeyMaterial: UnsafeRawBufferPointer, info: UnsafeRawBufferPointer,
        prk: UnsafeMutableRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        guard prk.count == 64, output.count == 128 else {
            throw .invalidParameters("a two-block HKDF step needs 64 bytes of PRK and 128 of output")
        }
        Sodium.requireInitialized()
        var extract = emptySaltState
        _ = crypto_auth_hmacsha512_update(&extract, inputKeyMaterial.bytes, UInt64(inputKeyMaterial.count))
        _ = crypto_auth_hmacsha512_final(&extract, prk.bytes!)

        var keyed = crypto_auth_hmacsha512_state()
        _ = crypto_auth_hmacsha512_init(&keyed, prk.bytes!, prk.count)
        var counter: UInt8 = 1
        // T(1) = HMAC(PRK, info | 0x01)
        var block = keyed
        _ = crypto_auth_hmacsha512_update(&block, info.bytes, UInt64(info.count))
        _ = crypto_auth_hmacsha512_update(&block, &counter, 1)
        _ = crypto_auth_hmacsha512_final(&block, output.bytes!)
        // T(2) = HMAC(PRK, T(1) | info | 0x02)
        counter = 2
        block = keyed
        _ = crypto_auth_hmacsha512_update(&block, output.bytes!, 64)
        _ = crypto_auth_hmacsha512_update(&block, info.bytes, UInt64(info.count))
        _ = crypto_auth_hmacsha512_update(&block, &counter, 1)
        _ = crypto_auth_hmacsha512_final(&block, output.bytes!.advanced(by: 64))
        // The keyed states hold PRK-derived pads, the extract state the chain key's hash.
        withUnsafeMutableBytes(of: &keyed) { sodium_memzero($0.baseAddress!, $0.count) }
        withUnsafeMutableBytes(of: &block) { sodium_memzero($0.baseAddress!, $0.count) }
        withUnsafeMutableBytes(of: &extract) { sodium_memzero($0.baseAddress!, $0.count) }
    }

    /// HMAC-SHA-512 keyed with the empty salt (RFC 5869: HashLen zero bytes), before any
    /// message: no secret in it.
    private static let emptySaltState: crypto_auth_hmacsha512_state = {
        Sodium.requireInitialized()
        var state = crypto_auth_hmacsha512_state()
        let zeros = [UInt8](repeating: 0, count: 64)
        _ = crypto_auth_hmacsha512_init(&state, zeros, zeros.count)
        return state
    }()
}
