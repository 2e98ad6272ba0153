import Foundation
import SimpleXCrypto
import Testing

struct SecretBoxTests {
    let key = SecureBytes.random(count: SecretBox.keyCount)
    let nonce = Random.bytes(count: SecretBox.nonceCount)
    let message = Array("the quick brown fox jumps over the lazy dog".utf8)

    @Test func roundTrip() throws {
        let box = try SecretBox.seal(message, nonce: nonce, key: key)
        #expect(box.count == message.count + SecretBox.macCount)
        #expect(!box.hexString.contains(message.hexString))
        #expect(try SecretBox.open(box, nonce: nonce, key: key) == message)
        #expect(try SecretBox.open(Data(box), nonce: nonce, key: key) == message)
    }

    @Test func emptyMessage() throws {
        let box = try SecretBox.seal([UInt8](), nonce: nonce, key: key)
        #expect(box.count == SecretBox.macCount)
        #expect(try SecretBox.open(box, nonce: nonce, key: key) == [])
    }

    /// Secretbox is deterministic in (key, nonce): the nonce, not hidden randomness, makes boxes differ.
    @Test func deterministicForKeyAndNonce() throws {
        #expect(
            try SecretBox.seal(message, nonce: nonce, key: key)
                == SecretBox.seal(message, nonce: nonce, key: key))
        #expect(
            try SecretBox.seal(message, nonce: nonce, key: key)
                != SecretBox.seal(message, nonce: flippingBit(nonce, at: 0), key: key))
    }

    @Test func tamperingIsDetected() throws {
        let box = try SecretBox.seal(message, nonce: nonce, key: key)
        for index in [0, SecretBox.macCount - 1, SecretBox.macCount, box.count - 1] {
            #expect(throws: CryptoError.authenticationFailed) {
                try SecretBox.open(flippingBit(box, at: index), nonce: nonce, key: key)
            }
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try SecretBox.open(box, nonce: flippingBit(nonce, at: 23), key: key)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try SecretBox.open(box, nonce: nonce, key: .random(count: 32))
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try SecretBox.open(Array(box.prefix(15)), nonce: nonce, key: key)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try SecretBox.open(Array(box.dropLast()), nonce: nonce, key: key)
        }
    }

    @Test func wrongSizesAreTypedErrors() {
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 31)) {
            try SecretBox.seal(message, nonce: nonce, key: SecureBytes(count: 31))
        }
        #expect(throws: CryptoError.invalidNonceSize(expected: 24, actual: 12)) {
            try SecretBox.seal(message, nonce: Array(nonce.prefix(12)), key: key)
        }
        #expect(throws: CryptoError.invalidNonceSize(expected: 24, actual: 0)) {
            try SecretBox.open(message, nonce: [], key: key)
        }
    }

    @Test func intoBufferVariantsMatchAllocatingOnes() throws {
        var box = [UInt8](repeating: 0, count: message.count + SecretBox.macCount + 5)
        let written = try box.withUnsafeMutableBytes {
            try SecretBox.seal(message, nonce: nonce, key: key, into: $0)
        }
        #expect(written == message.count + SecretBox.macCount)
        #expect(Array(box.prefix(written)) == (try SecretBox.seal(message, nonce: nonce, key: key)))
        var opened = [UInt8](repeating: 0, count: message.count)
        let openedCount = try opened.withUnsafeMutableBytes {
            try SecretBox.open(box.prefix(written), nonce: nonce, key: key, into: $0)
        }
        #expect(openedCount == message.count)
        #expect(opened == message)
        var small = [UInt8](repeating: 0, count: message.count + SecretBox.macCount - 1)
        #expect(throws: CryptoError.self) {
            try small.withUnsafeMutableBytes { try SecretBox.seal(message, nonce: nonce, key: key, into: $0) }
        }
    }
}

struct CryptoBoxTests {
    let alice = X25519.generateKeyPair()
    let bob = X25519.generateKeyPair()
    let nonce = Random.bytes(count: CryptoBox.nonceCount)
    let message = Array("meet at noon".utf8)

    @Test func roundTrip() throws {
        #expect(CryptoBox.nonceCount == 24)
        let box = try CryptoBox.seal(
            message, nonce: nonce, recipientPublicKey: bob.publicKey, senderPrivateKey: alice.privateKey)
        #expect(box.count == message.count + CryptoBox.macCount)
        let opened = try CryptoBox.open(
            box, nonce: nonce, senderPublicKey: alice.publicKey, recipientPrivateKey: bob.privateKey)
        #expect(opened == message)
    }

    @Test func sharedKeyInteroperatesWithOneShotCalls() throws {
        let aliceSide = try CryptoBox.SharedKey(publicKey: bob.publicKey, privateKey: alice.privateKey)
        let bobSide = try CryptoBox.SharedKey(publicKey: alice.publicKey, privateKey: bob.privateKey)
        let box = try aliceSide.seal(message, nonce: nonce)
        #expect(
            box
                == (try CryptoBox.seal(
                    message, nonce: nonce, recipientPublicKey: bob.publicKey,
                    senderPrivateKey: alice.privateKey)))
        #expect(try bobSide.open(box, nonce: nonce) == message)
        #expect(try bobSide.open(bobSide.seal([UInt8](), nonce: nonce), nonce: nonce) == [])
    }

    @Test func tamperingAndWrongKeysAreDetected() throws {
        let box = try CryptoBox.seal(
            message, nonce: nonce, recipientPublicKey: bob.publicKey, senderPrivateKey: alice.privateKey)
        let bobSide = try CryptoBox.SharedKey(publicKey: alice.publicKey, privateKey: bob.privateKey)
        for index in [0, 15, 16, box.count - 1] {
            #expect(throws: CryptoError.authenticationFailed) {
                try bobSide.open(flippingBit(box, at: index), nonce: nonce)
            }
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try bobSide.open(box, nonce: flippingBit(nonce, at: 3))
        }
        let eve = X25519.generateKeyPair()
        #expect(throws: CryptoError.authenticationFailed) {
            try CryptoBox.open(
                box, nonce: nonce, senderPublicKey: alice.publicKey, recipientPrivateKey: eve.privateKey)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try bobSide.open([1, 2, 3] as [UInt8], nonce: nonce)
        }
    }

    @Test func invalidKeysAndNoncesAreTypedErrors() {
        #expect(throws: CryptoError.invalidPublicKey) {
            try CryptoBox.SharedKey(publicKey: [UInt8](repeating: 0, count: 32), privateKey: alice.privateKey)
        }
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 31)) {
            try CryptoBox.SharedKey(publicKey: Array(bob.publicKey.dropLast()), privateKey: alice.privateKey)
        }
        #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 64)) {
            try CryptoBox.SharedKey(publicKey: bob.publicKey, privateKey: SecureBytes(count: 64))
        }
        #expect(throws: CryptoError.invalidNonceSize(expected: 24, actual: 25)) {
            try CryptoBox.seal(
                message, nonce: nonce + [0], recipientPublicKey: bob.publicKey,
                senderPrivateKey: alice.privateKey)
        }
    }
}
