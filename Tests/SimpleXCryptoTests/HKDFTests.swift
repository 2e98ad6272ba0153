import SimpleXCrypto
import Testing

/// RFC 5869 Appendix A, test cases 1–3 (HKDF-SHA-256): they pin the shared extract/expand construction.
struct HKDFSHA256Tests {
    static let cases: [(ikm: [UInt8], salt: [UInt8], info: [UInt8], length: Int, prk: String, okm: String)] =
        [
            (
                [UInt8](repeating: 0x0b, count: 22), Array(0x00...0x0c), Array(0xf0...0xf9), 42,
                "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
                "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
            ),
            (
                Array(0x00...0x4f), Array(0x60...0xaf), Array(0xb0...0xff), 82,
                "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
                "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c"
                    + "59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71"
                    + "cc30c58179ec3e87c14c01d5c1f3434f1d87"
            ),
            (
                [UInt8](repeating: 0x0b, count: 22), [], [], 42,
                "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
                "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
            ),
        ]

    @Test(arguments: 0..<cases.count) func rfc5869(index: Int) throws {
        let test = Self.cases[index]
        let prk = HKDFSHA256.extract(inputKeyMaterial: test.ikm, salt: test.salt)
        #expect(prk.array.hexString == test.prk)
        let okm = try HKDFSHA256.expand(pseudoRandomKey: prk, info: test.info, outputByteCount: test.length)
        #expect(okm.array.hexString == test.okm)
        let derived = try HKDFSHA256.deriveKey(
            inputKeyMaterial: test.ikm, salt: test.salt, info: test.info, outputByteCount: test.length)
        #expect(derived == okm)
    }

    @Test func outputLimits() throws {
        let prk = SecureBytes(count: 32)
        #expect(
            try HKDFSHA256.expand(pseudoRandomKey: prk, info: [UInt8](), outputByteCount: 255 * 32).count
                == 8160)
        #expect(throws: CryptoError.self) {
            try HKDFSHA256.expand(pseudoRandomKey: prk, info: [UInt8](), outputByteCount: 255 * 32 + 1)
        }
    }
}

/// HKDF-SHA-512 has no RFC vectors. These were produced by a throwaway Python 3 script that implements
/// RFC 5869 directly with the standard library (`hmac.new(key, msg, hashlib.sha512)`: PRK = HMAC(salt or
/// 64 zero bytes, IKM); T(i) = HMAC(PRK, T(i-1) | info | i)) and printed the hex of PRK and OKM.
struct HKDFSHA512Tests {
    let ikm = [UInt8](repeating: 0x0b, count: 22)

    @Test func rfcCase1InputsWithSHA512() throws {
        let salt: [UInt8] = Array(0x00...0x0c)
        let info: [UInt8] = Array(0xf0...0xf9)
        let prk = HKDFSHA512.extract(inputKeyMaterial: ikm, salt: salt)
        #expect(
            prk.array.hexString == """
                665799823737ded04a88e47e54a5890bb2c3d247c7a4254a8e61350723590a26\
                c36238127d8661b88cf80ef802d57e2f7cebcf1e00e083848be19929c61b4237
                """)
        let okm = try HKDFSHA512.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: 42)
        #expect(
            okm.array.hexString
                == "832390086cda71fb47625bb5ceb168e4c8e26a1a16ed34d9fc7fe92c1481579338da362cb8d9f925d7cb")
        #expect(try HKDFSHA512.expand(pseudoRandomKey: prk, info: info, outputByteCount: 42) == okm)
    }

    @Test func emptySaltAndInfo() throws {
        let prk = HKDFSHA512.extract(inputKeyMaterial: ikm, salt: [UInt8]())
        #expect(
            prk.array.hexString == """
                fd200c4987ac491313bd4a2a13287121247239e11c9ef82802044b66ef357e5b\
                194498d0682611382348572a7b1611de54764094286320578a863f36562b0df6
                """)
        // RFC 5869 §2.2: no salt is the same as HashLen zero bytes.
        #expect(prk == HKDFSHA512.extract(inputKeyMaterial: ikm, salt: [UInt8](repeating: 0, count: 64)))
        let okm = try HKDFSHA512.deriveKey(
            inputKeyMaterial: ikm, salt: [UInt8](), info: [UInt8](), outputByteCount: 42)
        #expect(
            okm.array.hexString
                == "f5fa02b18298a72a8c23898a8703472c6eb179dc204c03425c970e3b164bf90fff22d04836d0e2343bac")
    }

    /// The maximum output, 255 blocks: the same Python script printed the SHA-256 of all 16320 bytes
    /// and the first and last 32 bytes, for IKM 0x00..0x4f, salt 0x60..0xaf, info 0xb0..0xff.
    @Test func maximumOutput() throws {
        let okm = try HKDFSHA512.deriveKey(
            inputKeyMaterial: Array(0x00...0x4f) as [UInt8], salt: Array(0x60...0xaf) as [UInt8],
            info: Array(0xb0...0xff) as [UInt8], outputByteCount: 255 * 64)
        #expect(okm.count == 16320)
        #expect(HKDFSHA512.maximumOutputByteCount == 16320)
        let bytes = okm.array
        #expect(
            bytes.prefix(32).hexString == "ce6c97192805b346e6161e821ed165673b84f400a2b514b2fe23d84cd189ddf1")
        #expect(
            bytes.suffix(32).hexString == "d1cfa575020dcaa251086d01b271c6cc1338d44565bf7332de2b8b3f408190e9")
        #expect(
            SHA256.hash(bytes).hexString == "f3393e29c32fbee239807fc3fcbfc92b673d994c64dcd5477ada746e109c7056"
        )
    }

    @Test func outputBoundsAreTypedErrors() {
        #expect(throws: CryptoError.invalidParameters("HKDF output must be 1...16320 bytes, got 16321")) {
            try HKDFSHA512.deriveKey(
                inputKeyMaterial: self.ikm, salt: [UInt8](), info: [UInt8](), outputByteCount: 255 * 64 + 1)
        }
        #expect(throws: CryptoError.self) {
            try HKDFSHA512.deriveKey(
                inputKeyMaterial: self.ikm, salt: [UInt8](), info: [UInt8](), outputByteCount: 0)
        }
        // A PRK shorter than the hash is not a PRK (RFC 5869 §2.3).
        #expect(throws: CryptoError.invalidKeySize(expected: 64, actual: 32)) {
            try HKDFSHA512.expand(
                pseudoRandomKey: SecureBytes(count: 32), info: [UInt8](), outputByteCount: 16)
        }
    }

    @Test func shorterOutputIsPrefixOfLonger() throws {
        let long = try HKDFSHA512.deriveKey(
            inputKeyMaterial: ikm, salt: [1, 2, 3] as [UInt8], info: [9] as [UInt8],
            outputByteCount: 200)
        let short = try HKDFSHA512.deriveKey(
            inputKeyMaterial: ikm, salt: [1, 2, 3] as [UInt8], info: [9] as [UInt8],
            outputByteCount: 65)
        #expect(Array(long.array.prefix(65)) == short.array)
        let otherInfo = try HKDFSHA512.deriveKey(
            inputKeyMaterial: ikm, salt: [1, 2, 3] as [UInt8],
            info: [8] as [UInt8], outputByteCount: 65)
        #expect(otherInfo != short)
    }

    /// The chain step's two-block fast path derives the same bytes as extract (empty salt) and
    /// expand, for chain keys of the block chain's size and others, and refuses wrong buffers.
    @Test func twoBlockStepEqualsExtractThenExpand() throws {
        let info = Array("SimpleXSbChain".utf8)
        for length in [0, 1, 32, 64, 100, 200] {
            let ikm = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) }
            let expected = try HKDFSHA512.deriveKey(
                inputKeyMaterial: ikm, salt: [UInt8](), info: info, outputByteCount: 128
            ).withUnsafeBytes { Array($0) }
            var prk = [UInt8](repeating: 0, count: 64)
            var output = [UInt8](repeating: 0, count: 128)
            try ikm.withUnsafeBytes { ikm in
                try info.withUnsafeBytes { info in
                    try prk.withUnsafeMutableBytes { prk in
                        try output.withUnsafeMutableBytes { output in
                            try HKDFSHA512.extractAndExpandTwoBlocks(
                                inputKeyMaterial: ikm, info: info, prk: prk, into: output)
                        }
                    }
                }
            }
            #expect(output == expected, "ikm of \(length) bytes")
            #expect(
                prk
                    == HKDFSHA512.extract(inputKeyMaterial: ikm, salt: [UInt8]()).withUnsafeBytes {
                        Array($0)
                    })
        }
        var short = [UInt8](repeating: 0, count: 88)
        var prk = [UInt8](repeating: 0, count: 64)
        #expect(throws: CryptoError.self) {
            try short.withUnsafeMutableBytes { output in
                try prk.withUnsafeMutableBytes { prk in
                    try HKDFSHA512.extractAndExpandTwoBlocks(
                        inputKeyMaterial: UnsafeRawBufferPointer(start: nil, count: 0),
                        info: UnsafeRawBufferPointer(start: nil, count: 0), prk: prk, into: output)
                }
            }
        }
    }
}
