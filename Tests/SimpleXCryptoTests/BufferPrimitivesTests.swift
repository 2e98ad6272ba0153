import SimpleXCrypto
import Testing

/// The allocation-free primitives agree byte for byte with the allocating ones, detect tampering,
/// and refuse wrong sizes with typed errors.
struct BufferPrimitivesTests {
    let key = SecureBytes.random(count: 32)
    let nonce = Random.bytes(count: 24)
    let message = Array("sixteen kilobytes, in spirit".utf8) + Random.bytes(count: 1000)

    private func flipped(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var copy = bytes
        copy[index] ^= 0x01
        return copy
    }

    // MARK: HMAC and HKDF

    @Test func hmacIntoBufferMatchesAllocatingHMAC() throws {
        let rawKey = Random.bytes(count: 40)
        var out = [UInt8](repeating: 0, count: 64)
        try rawKey.withUnsafeBytes { k in
            try message.withUnsafeBytes { m in try out.withUnsafeMutableBytes { try HMACSHA512.authenticate(m, key: k, into: $0) } }
        }
        #expect(out == HMACSHA512.authenticate(message, key: rawKey))
        var short = [UInt8](repeating: 0, count: 63)
        #expect(throws: CryptoError.invalidParameters("HMAC-SHA-512 output must be 64 bytes, got 63")) {
            try rawKey.withUnsafeBytes { k in
                try message.withUnsafeBytes { m in try short.withUnsafeMutableBytes { try HMACSHA512.authenticate(m, key: k, into: $0) } }
            }
        }
    }

    /// Output lengths around the 64-byte block: a partial last block goes through the stack scratch.
    @Test(arguments: [1, 32, 63, 64, 65, 88, 128, 200])
    func hkdfIntoBufferMatchesAllocatingHKDF(length: Int) throws {
        let ikm = Random.bytes(count: 32)
        let salt = Random.bytes(count: 32)
        let info = Array("SimpleXSbChain".utf8)
        for saltBytes in [salt, []] {
            var prk = [UInt8](repeating: 0, count: 64)
            try ikm.withUnsafeBytes { i in
                try saltBytes.withUnsafeBytes { s in
                    try prk.withUnsafeMutableBytes { try HKDFSHA512.extract(inputKeyMaterial: i, salt: s, into: $0) }
                }
            }
            #expect(prk == HKDFSHA512.extract(inputKeyMaterial: ikm, salt: saltBytes).array)
            var okm = [UInt8](repeating: 0, count: length)
            try prk.withUnsafeBytes { p in
                try info.withUnsafeBytes { n in
                    try okm.withUnsafeMutableBytes { try HKDFSHA512.expand(pseudoRandomKey: p, info: n, into: $0) }
                }
            }
            let expected = try HKDFSHA512.deriveKey(
                inputKeyMaterial: ikm, salt: saltBytes, info: info, outputByteCount: length)
            #expect(okm == expected.array)
        }
    }

    @Test func hkdfIntoBufferRefusesWrongSizes() {
        let ikm = Random.bytes(count: 32)
        var prk63 = [UInt8](repeating: 0, count: 63)
        #expect(throws: CryptoError.invalidParameters("HKDF extract output must be 64 bytes, got 63")) {
            try ikm.withUnsafeBytes { i in
                try prk63.withUnsafeMutableBytes { try HKDFSHA512.extract(inputKeyMaterial: i, salt: i, into: $0) }
            }
        }
        var out = [UInt8](repeating: 0, count: 32)
        #expect(throws: CryptoError.invalidKeySize(expected: 64, actual: 32)) {
            try ikm.withUnsafeBytes { shortKey in
                try out.withUnsafeMutableBytes { try HKDFSHA512.expand(pseudoRandomKey: shortKey, info: shortKey, into: $0) }
            }
        }
        let prk = [UInt8](repeating: 7, count: 64)
        var empty = [UInt8]()
        #expect(throws: CryptoError.invalidParameters("HKDF output must be 1...16320 bytes, got 0")) {
            try prk.withUnsafeBytes { p in
                try empty.withUnsafeMutableBytes { try HKDFSHA512.expand(pseudoRandomKey: p, info: p, into: $0) }
            }
        }
        var tooLong = [UInt8](repeating: 0, count: 16_321)
        #expect(throws: CryptoError.invalidParameters("HKDF output must be 1...16320 bytes, got 16321")) {
            try prk.withUnsafeBytes { p in
                try tooLong.withUnsafeMutableBytes { try HKDFSHA512.expand(pseudoRandomKey: p, info: p, into: $0) }
            }
        }
    }

    // MARK: SecretBox with a raw key

    private func secretBoxSeal(_ message: [UInt8], nonce: [UInt8], key: [UInt8], outputCount: Int? = nil) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: outputCount ?? message.count + SecretBox.macCount)
        let written = try message.withUnsafeBytes { m in
            try nonce.withUnsafeBytes { n in
                try key.withUnsafeBytes { k in try out.withUnsafeMutableBytes { try SecretBox.seal(m, nonce: n, key: k, into: $0) } }
            }
        }
        return Array(out[..<written])
    }

    private func secretBoxOpen(_ box: [UInt8], nonce: [UInt8], key: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(box.count - SecretBox.macCount, 0))
        let written = try box.withUnsafeBytes { b in
            try nonce.withUnsafeBytes { n in
                try key.withUnsafeBytes { k in try out.withUnsafeMutableBytes { try SecretBox.open(b, nonce: n, key: k, into: $0) } }
            }
        }
        return Array(out[..<written])
    }

    @Test func secretBoxWithRawKeyMatchesSecureBytesKey() throws {
        let rawKey = key.array
        let box = try secretBoxSeal(message, nonce: nonce, key: rawKey)
        #expect(box == (try SecretBox.seal(message, nonce: nonce, key: key)))
        #expect(try secretBoxOpen(box, nonce: nonce, key: rawKey) == message)
        #expect(try SecretBox.open(box, nonce: nonce, key: key) == message)
        #expect(try secretBoxOpen(secretBoxSeal([], nonce: nonce, key: rawKey), nonce: nonce, key: rawKey) == [])
    }

    @Test func secretBoxWithRawKeyDetectsTampering() throws {
        let rawKey = key.array
        let box = try secretBoxSeal(message, nonce: nonce, key: rawKey)
        for index in [0, 15, 16, box.count - 1] {
            #expect(throws: CryptoError.authenticationFailed) {
                try secretBoxOpen(flipped(box, at: index), nonce: nonce, key: rawKey)
            }
        }
        #expect(throws: CryptoError.authenticationFailed) { try secretBoxOpen(box, nonce: flipped(nonce, at: 0), key: rawKey) }
        #expect(throws: CryptoError.authenticationFailed) { try secretBoxOpen(box, nonce: nonce, key: flipped(rawKey, at: 31)) }
        #expect(throws: CryptoError.authenticationFailed) { try secretBoxOpen([1, 2, 3], nonce: nonce, key: rawKey) }
    }

    @Test func secretBoxWithRawKeyRefusesWrongSizes() {
        let rawKey = key.array
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 31)) {
            try secretBoxSeal(message, nonce: nonce, key: Array(rawKey.dropLast()))
        }
        #expect(throws: CryptoError.invalidNonceSize(expected: 24, actual: 23)) {
            try secretBoxSeal(message, nonce: Array(nonce.dropLast()), key: rawKey)
        }
        #expect(throws: CryptoError.invalidParameters("secretbox output needs \(message.count + 16) bytes, got \(message.count)")) {
            try secretBoxSeal(message, nonce: nonce, key: rawKey, outputCount: message.count)
        }
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 33)) {
            try secretBoxOpen(message, nonce: nonce, key: rawKey + [0])
        }
    }

    // MARK: CryptoBox with a precomputed raw key

    private func boxSeal(_ message: [UInt8], nonce: [UInt8], key: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: message.count + CryptoBox.macCount)
        try message.withUnsafeBytes { m in
            try nonce.withUnsafeBytes { n in
                try key.withUnsafeBytes { k in
                    try out.withUnsafeMutableBytes { _ = try CryptoBox.seal(m, nonce: n, precomputedKey: k, into: $0) }
                }
            }
        }
        return out
    }

    private func boxOpen(_ box: [UInt8], nonce: [UInt8], key: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(box.count - CryptoBox.macCount, 0))
        try box.withUnsafeBytes { b in
            try nonce.withUnsafeBytes { n in
                try key.withUnsafeBytes { k in
                    try out.withUnsafeMutableBytes { _ = try CryptoBox.open(b, nonce: n, precomputedKey: k, into: $0) }
                }
            }
        }
        return out
    }

    @Test func cryptoBoxWithPrecomputedRawKeyMatchesSharedKey() throws {
        let alice = X25519.generateKeyPair()
        let bob = X25519.generateKeyPair()
        let aliceSide = try CryptoBox.SharedKey(publicKey: bob.publicKey, privateKey: alice.privateKey)
        let bobSide = try CryptoBox.SharedKey(publicKey: alice.publicKey, privateKey: bob.privateKey)
        let rawKey = aliceSide.precomputed.array
        let box = try boxSeal(message, nonce: nonce, key: rawKey)
        #expect(box == (try aliceSide.seal(message, nonce: nonce)))
        #expect(try bobSide.open(box, nonce: nonce) == message)
        #expect(try boxOpen(box, nonce: nonce, key: bobSide.precomputed.array) == message)
        for index in [0, 16, box.count - 1] {
            #expect(throws: CryptoError.authenticationFailed) { try boxOpen(flipped(box, at: index), nonce: nonce, key: rawKey) }
        }
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 31)) {
            try boxSeal(message, nonce: nonce, key: Array(rawKey.dropLast()))
        }
        #expect(throws: CryptoError.invalidNonceSize(expected: 24, actual: 25)) {
            try boxSeal(message, nonce: nonce + [0], key: rawKey)
        }
    }

    // MARK: SecureBuffer

    @Test func secureBufferStartsZeroedIsWritableAndCopies() {
        let buffer = SecureBuffer(count: 48)
        #expect(buffer.withUnsafeBytes { Array($0) } == [UInt8](repeating: 0, count: 48))
        buffer.withUnsafeMutableBytes { for index in $0.indices { $0[index] = UInt8(index) } }
        let copy = buffer.copy()
        buffer.withUnsafeMutableBytes { $0[0] = 0xff }
        #expect(copy.withUnsafeBytes { Array($0) } == (0..<48).map { UInt8($0) })
        #expect(buffer.withUnsafeBytes { $0[0] } == 0xff)
        buffer.zero()
        #expect(buffer.withUnsafeBytes { Array($0) } == [UInt8](repeating: 0, count: 48))
        #expect("\(buffer)" == "SecureBuffer(48 bytes)")
        #expect(SecureBuffer(count: 0).withUnsafeBytes { $0.isEmpty })
    }
}
