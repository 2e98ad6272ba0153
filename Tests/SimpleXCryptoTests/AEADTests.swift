import Foundation
import SimpleXCrypto
import Testing

struct XChaCha20Poly1305Tests {
    /// draft-irtf-cfrg-xchacha-03 Appendix A.3.1.
    @Test func draftTestVector() throws {
        let plaintext = Array(
            ("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future,"
                + " sunscreen would be it.").utf8)
        let ad = hex("50515253c0c1c2c3c4c5c6c7")
        let key = SecureBytes(
            copying: hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"))
        let nonce = hex("404142434445464748494a4b4c4d4e4f5051525354555657")
        let expected = """
            bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb\
            731c7f1b0b4aa6440bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b452\
            2f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff9\
            21f9664c97637da9768812f615c68b13b52e\
            c0875924c1c7987947deafd8780acf49
            """
        let sealed = try XChaCha20Poly1305.seal(plaintext, key: key, nonce: nonce, associatedData: ad)
        #expect(sealed.hexString == expected)
        let opened = try XChaCha20Poly1305.open(sealed, key: key, nonce: nonce, associatedData: ad)
        #expect(opened.array == plaintext)
    }

    let key = SecureBytes.random(count: XChaCha20Poly1305.keyCount)
    let nonce = XChaCha20Poly1305.randomNonce()
    let ad = Array("chat item 42".utf8)
    let plaintext = Array("database passphrase".utf8)

    @Test func roundTripIntoSecureBytes() throws {
        let sealed = try XChaCha20Poly1305.seal(plaintext, key: key, nonce: nonce, associatedData: ad)
        #expect(sealed.count == plaintext.count + XChaCha20Poly1305.tagCount)
        let opened = try XChaCha20Poly1305.open(Data(sealed), key: key, nonce: nonce, associatedData: ad)
        #expect(opened == SecureBytes(copying: plaintext))
        let empty = try XChaCha20Poly1305.seal([UInt8](), key: key, nonce: nonce, associatedData: [UInt8]())
        #expect(empty.count == 16)
        #expect(
            try XChaCha20Poly1305.open(empty, key: key, nonce: nonce, associatedData: [UInt8]()).count == 0)
    }

    @Test func randomNoncesDiffer() {
        #expect(nonce.count == 24)
        #expect(XChaCha20Poly1305.randomNonce() != XChaCha20Poly1305.randomNonce())
    }

    @Test func tamperingIsDetected() throws {
        let sealed = try XChaCha20Poly1305.seal(plaintext, key: key, nonce: nonce, associatedData: ad)
        // First ciphertext byte, last ciphertext byte, first and last tag byte.
        for index in [0, plaintext.count - 1, plaintext.count, sealed.count - 1] {
            #expect(throws: CryptoError.authenticationFailed) {
                try XChaCha20Poly1305.open(
                    flippingBit(sealed, at: index), key: key, nonce: nonce, associatedData: ad)
            }
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try XChaCha20Poly1305.open(sealed, key: key, nonce: nonce, associatedData: flippingBit(ad, at: 0))
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try XChaCha20Poly1305.open(sealed, key: key, nonce: nonce, associatedData: [UInt8]())
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try XChaCha20Poly1305.open(
                sealed, key: key, nonce: flippingBit(nonce, at: 20), associatedData: ad)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try XChaCha20Poly1305.open(sealed, key: .random(count: 32), nonce: nonce, associatedData: ad)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try XChaCha20Poly1305.open(Array(sealed.prefix(15)), key: key, nonce: nonce, associatedData: ad)
        }
    }

    @Test func wrongSizesAreTypedErrors() {
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 16)) {
            try XChaCha20Poly1305.seal(
                plaintext, key: SecureBytes(count: 16), nonce: nonce, associatedData: ad)
        }
        #expect(throws: CryptoError.invalidNonceSize(expected: 24, actual: 12)) {
            try XChaCha20Poly1305.seal(
                plaintext, key: key, nonce: Array(nonce.prefix(12)), associatedData: ad)
        }
        #expect(throws: CryptoError.invalidNonceSize(expected: 24, actual: 25)) {
            try XChaCha20Poly1305.open(plaintext, key: key, nonce: nonce + [1], associatedData: ad)
        }
    }
}

struct PasswordHashTests {
    let salt = hex("000102030405060708090a0b0c0d0e0f")
    let passphrase = Array("correct horse battery staple".utf8)

    @Test func deterministicForSameSalt() throws {
        let a = try PasswordHash.deriveKey(
            passphrase: passphrase, salt: salt, limits: .minimum, outputByteCount: 32)
        let b = try PasswordHash.deriveKey(
            passphrase: SecureBytes(copying: passphrase), salt: salt, limits: .minimum, outputByteCount: 32)
        #expect(a.count == 32)
        #expect(a == b)
    }

    @Test func differsForSaltPassphraseAndLimits() throws {
        let base = try PasswordHash.deriveKey(
            passphrase: passphrase, salt: salt, limits: .minimum, outputByteCount: 32)
        let otherSalt = try PasswordHash.deriveKey(
            passphrase: passphrase, salt: flippingBit(salt, at: 15), limits: .minimum, outputByteCount: 32)
        let otherPassphrase = try PasswordHash.deriveKey(
            passphrase: flippingBit(passphrase, at: 0), salt: salt, limits: .minimum, outputByteCount: 32)
        let moreOps = try PasswordHash.deriveKey(
            passphrase: passphrase, salt: salt, limits: .init(opsLimit: 2, memLimit: 8192),
            outputByteCount: 32)
        #expect(base != otherSalt)
        #expect(base != otherPassphrase)
        #expect(base != moreOps)
    }

    @Test func emptyPassphraseWorks() throws {
        let key = try PasswordHash.deriveKey(
            passphrase: [UInt8](), salt: salt, limits: .minimum, outputByteCount: 16)
        #expect(key.count == 16)
        #expect(key != SecureBytes(count: 16))
    }

    @Test func libsodiumLimits() throws {
        #expect(PasswordHash.saltCount == 16)
        #expect(PasswordHash.Limits.minimum == .init(opsLimit: 1, memLimit: 8192))
        #expect(PasswordHash.Limits.interactive == .init(opsLimit: 2, memLimit: 64 << 20))
        #expect(PasswordHash.Limits.moderate == .init(opsLimit: 3, memLimit: 256 << 20))
        #expect(PasswordHash.Limits.sensitive == .init(opsLimit: 4, memLimit: 1 << 30))
        let decoded = try JSONDecoder().decode(
            PasswordHash.Limits.self, from: JSONEncoder().encode(PasswordHash.Limits.moderate))
        #expect(decoded == .moderate)
    }

    @Test func badParametersAreTypedErrors() {
        #expect(throws: CryptoError.self) {
            try PasswordHash.deriveKey(
                passphrase: passphrase, salt: Array(salt.prefix(8)), limits: .minimum,
                outputByteCount: 32)
        }
        #expect(throws: CryptoError.self) {
            try PasswordHash.deriveKey(
                passphrase: passphrase, salt: salt, limits: .minimum, outputByteCount: 8)
        }
        #expect(throws: CryptoError.passwordHashFailed) {
            try PasswordHash.deriveKey(
                passphrase: passphrase, salt: salt, limits: .init(opsLimit: 0, memLimit: 8192),
                outputByteCount: 32)
        }
        #expect(throws: CryptoError.passwordHashFailed) {
            try PasswordHash.deriveKey(
                passphrase: passphrase, salt: salt, limits: .init(opsLimit: 1, memLimit: 1024),
                outputByteCount: 32)
        }
    }
}

struct CryptoErrorTests {
    @Test func descriptionsAreOneLineEnglish() {
        let errors: [CryptoError] = [
            .sodiumInitFailed, .invalidKeySize(expected: 32, actual: 31),
            .invalidNonceSize(expected: 24, actual: 0),
            .invalidSignatureSize, .invalidSignature, .authenticationFailed, .invalidPublicKey,
            .passwordHashFailed,
            .invalidParameters("salt too short"),
        ]
        for error in errors {
            #expect(!error.description.isEmpty)
            #expect(!error.description.contains("\n"))
        }
        #expect(
            CryptoError.invalidKeySize(expected: 32, actual: 31).description.contains(
                "expected 32 bytes, got 31"))
        #expect(Set(errors.map(\.description)).count == errors.count)
    }
}
