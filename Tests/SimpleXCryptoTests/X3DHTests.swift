import SimpleXCrypto
import Testing

/// SimpleX's two-key X3DH: both ends agree, and the derivation is exactly the specified one.
struct X3DHTests {
    let initiator = RatchetKeyPairs.generate()
    let joiner = RatchetKeyPairs.generate()

    @Test func bothSidesDeriveTheSameParameters() throws {
        let fromJoiner = try X3DH.joiner(own: joiner, initiator: initiator.publicKeys)
        let fromInitiator = try X3DH.initiator(own: initiator, joiner: joiner.publicKeys)
        #expect(fromJoiner == fromInitiator)
        #expect(fromJoiner.associatedData == joiner.first.publicKey + initiator.first.publicKey)
        let keys = [fromJoiner.rootKey, fromJoiner.sendHeaderKey, fromJoiner.nextReceiveHeaderKey]
        #expect(keys.allSatisfy { $0.count == 32 })
        #expect(Set(keys.map(\.array)).count == 3)
    }

    /// dh1 = DH(joiner k2, initiator k1), dh2 = DH(joiner k1, initiator k2), dh3 = DH(joiner k2,
    /// initiator k2); HKDF-SHA512(64 zero bytes, dh1 ‖ dh2 ‖ dh3, "SimpleXX3DH") = hk ‖ nhk ‖ rk.
    @Test func derivationMatchesTheSpecification() throws {
        let dh1 = try X25519.sharedSecret(
            privateKey: joiner.second.privateKey, publicKey: initiator.first.publicKey)
        let dh2 = try X25519.sharedSecret(
            privateKey: joiner.first.privateKey, publicKey: initiator.second.publicKey)
        let dh3 = try X25519.sharedSecret(
            privateKey: joiner.second.privateKey, publicKey: initiator.second.publicKey)
        let okm = try HKDFSHA512.deriveKey(
            inputKeyMaterial: dh1.array + dh2.array + dh3.array, salt: [UInt8](repeating: 0, count: 64),
            info: Array("SimpleXX3DH".utf8), outputByteCount: 96
        ).array
        let parameters = try X3DH.initiator(own: initiator, joiner: joiner.publicKeys)
        #expect(parameters.sendHeaderKey.array == Array(okm[0..<32]))
        #expect(parameters.nextReceiveHeaderKey.array == Array(okm[32..<64]))
        #expect(parameters.rootKey.array == Array(okm[64..<96]))
    }

    @Test func wrongKeysGiveDifferentParametersAndNoMessages() throws {
        let stranger = RatchetKeyPairs.generate()
        let fromJoiner = try X3DH.joiner(own: joiner, initiator: initiator.publicKeys)
        // The initiator believes it talks to `stranger`: only the second key differs.
        let mixed = try RatchetPublicKeys(first: joiner.first.publicKey, second: stranger.second.publicKey)
        let wrong = try X3DH.initiator(own: initiator, joiner: mixed)
        #expect(wrong != fromJoiner)
        #expect(wrong.rootKey != fromJoiner.rootKey)
        #expect(wrong.sendHeaderKey != fromJoiner.sendHeaderKey)

        var sender = try RatchetState(joiner: fromJoiner, initiatorKeys: initiator.publicKeys)
        var receiver = try RatchetState(initiator: wrong, ownKeys: initiator)
        receiver.expectFailure(try sender.seal(plaintext("joiner", 0)), .headerDecryptionFailed)
    }

    @Test func invalidPublicKeysAreRefused() throws {
        #expect(throws: RatchetError.invalidPublicKey) {
            try RatchetPublicKeys(first: [UInt8](repeating: 1, count: 31), second: joiner.second.publicKey)
        }
        // The all-zero point has small order: its DH output would be all zeros.
        let lowOrder = try RatchetPublicKeys(
            first: [UInt8](repeating: 0, count: 32), second: joiner.second.publicKey)
        #expect(throws: RatchetError.invalidPublicKey) {
            try X3DH.initiator(own: initiator, joiner: lowOrder)
        }
        #expect(throws: RatchetError.invalidPublicKey) {
            try RatchetState.joining(own: joiner, initiator: lowOrder)
        }
    }

    @Test func descriptionHidesTheKeys() throws {
        let parameters = try X3DH.joiner(own: joiner, initiator: initiator.publicKeys)
        let text = "\(parameters)"
        #expect(!text.contains(parameters.rootKey.array.hexString))
        #expect(text.contains("redacted"))
    }
}
