import SimpleXCrypto
import Testing

/// X25519 with the RFC 7748 §6.1 Alice/Bob vectors.
struct X25519Tests {
    let alicePrivate = hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
    let alicePublic = hex("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
    let bobPrivate = hex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
    let bobPublic = hex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
    let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"

    @Test func rfc7748PublicKeys() throws {
        #expect(
            try X25519.keyPair(fromPrivateKey: SecureBytes(copying: alicePrivate)).publicKey == alicePublic)
        #expect(try X25519.keyPair(fromPrivateKey: SecureBytes(copying: bobPrivate)).publicKey == bobPublic)
    }

    @Test func rfc7748SharedSecret() throws {
        let fromAlice = try X25519.sharedSecret(
            privateKey: SecureBytes(copying: alicePrivate), publicKey: bobPublic)
        let fromBob = try X25519.sharedSecret(
            privateKey: SecureBytes(copying: bobPrivate), publicKey: alicePublic)
        #expect(fromAlice.array.hexString == shared)
        #expect(fromBob == fromAlice)
    }

    @Test func generatedPairsAgree() throws {
        let a = X25519.generateKeyPair()
        let b = X25519.generateKeyPair()
        #expect(a.publicKey.count == 32)
        #expect(a.privateKey.count == 32)
        #expect(a.publicKey != b.publicKey)
        #expect(try X25519.keyPair(fromPrivateKey: a.privateKey).publicKey == a.publicKey)
        let ab = try X25519.sharedSecret(privateKey: a.privateKey, publicKey: b.publicKey)
        let ba = try X25519.sharedSecret(privateKey: b.privateKey, publicKey: a.publicKey)
        #expect(ab == ba)
        let c = X25519.generateKeyPair()
        #expect(try X25519.sharedSecret(privateKey: a.privateKey, publicKey: c.publicKey) != ab)
    }

    @Test(arguments: [
        "0000000000000000000000000000000000000000000000000000000000000000",  // order 4 (zero)
        "0100000000000000000000000000000000000000000000000000000000000000",  // order 1
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",  // order 8
    ])
    func lowOrderPointsRejected(point: String) {
        let pair = X25519.generateKeyPair()
        #expect(throws: CryptoError.invalidPublicKey) {
            try X25519.sharedSecret(privateKey: pair.privateKey, publicKey: hex(point))
        }
    }

    @Test func wrongSizesAreTypedErrors() {
        let pair = X25519.generateKeyPair()
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 31)) {
            try X25519.sharedSecret(privateKey: pair.privateKey, publicKey: Array(pair.publicKey.prefix(31)))
        }
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 16)) {
            try X25519.sharedSecret(privateKey: SecureBytes(count: 16), publicKey: pair.publicKey)
        }
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 0)) {
            try X25519.keyPair(fromPrivateKey: SecureBytes(count: 0))
        }
    }
}

/// Ed25519 with RFC 8032 §7.1 TEST 1 (empty message) and TEST 2 (one byte).
struct Ed25519Tests {
    static let vectors: [(seed: String, publicKey: String, message: String, signature: String)] = [
        (
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b"
                + "d25bf5f0595bbe24655141438e7a100b"
        ),
        (
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c"
                + "387b2eaeb4302aeeb00d291612bb0c00"
        ),
    ]

    @Test(arguments: 0..<vectors.count) func rfc8032(index: Int) throws {
        let vector = Self.vectors[index]
        let pair = try Ed25519.keyPair(fromSeed: SecureBytes(copying: hex(vector.seed)))
        #expect(pair.publicKey.hexString == vector.publicKey)
        #expect(pair.secretKey.count == 64)
        let message = hex(vector.message)
        let signature = try Ed25519.sign(message, secretKey: pair.secretKey)
        #expect(signature.hexString == vector.signature)
        #expect(Ed25519.isValidSignature(signature, for: message, publicKey: pair.publicKey))
    }

    @Test func rejectsTamperedSignaturesMessagesAndKeys() throws {
        let pair = Ed25519.generateKeyPair()
        let message = Array("transfer 10".utf8)
        let signature = try Ed25519.sign(message, secretKey: pair.secretKey)
        #expect(Ed25519.isValidSignature(signature, for: message, publicKey: pair.publicKey))
        #expect(
            !Ed25519.isValidSignature(flippingBit(signature, at: 5), for: message, publicKey: pair.publicKey))
        #expect(
            !Ed25519.isValidSignature(flippingBit(signature, at: 40), for: message, publicKey: pair.publicKey)
        )
        #expect(
            !Ed25519.isValidSignature(signature, for: Array("transfer 11".utf8), publicKey: pair.publicKey))
        let other = Ed25519.generateKeyPair()
        #expect(!Ed25519.isValidSignature(signature, for: message, publicKey: other.publicKey))
        #expect(throws: CryptoError.invalidSignature) {
            try Ed25519.verify(flippingBit(signature, at: 0), for: message, publicKey: pair.publicKey)
        }
        try Ed25519.verify(signature, for: message, publicKey: pair.publicKey)
    }

    @Test func wrongSizesAreTypedErrorsOrInvalid() throws {
        let pair = Ed25519.generateKeyPair()
        let message = [UInt8](repeating: 7, count: 10)
        let signature = try Ed25519.sign(message, secretKey: pair.secretKey)
        #expect(
            !Ed25519.isValidSignature(Array(signature.prefix(63)), for: message, publicKey: pair.publicKey))
        #expect(
            !Ed25519.isValidSignature(signature, for: message, publicKey: Array(pair.publicKey.prefix(31))))
        #expect(throws: CryptoError.invalidSignatureSize) {
            try Ed25519.verify(signature + [0], for: message, publicKey: pair.publicKey)
        }
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 33)) {
            try Ed25519.verify(signature, for: message, publicKey: pair.publicKey + [0])
        }
        #expect(throws: CryptoError.invalidKeySize(expected: 64, actual: 32)) {
            try Ed25519.sign(message, secretKey: SecureBytes(count: 32))
        }
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 64)) {
            try Ed25519.keyPair(fromSeed: pair.secretKey)
        }
    }

    @Test func generatedPairsDiffer() throws {
        let a = Ed25519.generateKeyPair()
        let b = Ed25519.generateKeyPair()
        #expect(a.publicKey != b.publicKey)
        // libsodium's secret key is seed | public key.
        #expect(Array(a.secretKey.array.suffix(32)) == a.publicKey)
        let seed = SecureBytes(copying: a.secretKey.array.prefix(32))
        #expect(try Ed25519.keyPair(fromSeed: seed).publicKey == a.publicKey)
    }
}

@Suite struct PrecomputedSharedKeyTests {
    @Test func aKeptPrecomputedKeyOpensWhatTheOriginalSealed() throws {
        let a = X25519.generateKeyPair()
        let b = X25519.generateKeyPair()
        let original = try CryptoBox.SharedKey(publicKey: b.publicKey, privateKey: a.privateKey)
        let kept = try CryptoBox.SharedKey(precomputed: original.precomputed)
        let nonce = Random.bytes(count: CryptoBox.nonceCount)
        let box = try original.seal(Array("queue message".utf8), nonce: nonce)
        #expect(try kept.open(box, nonce: nonce) == Array("queue message".utf8))
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 31)) {
            try CryptoBox.SharedKey(precomputed: [UInt8](repeating: 1, count: 31))
        }
    }
}
