import SimpleXCrypto
import Testing

/// Both ends of one connection, made as the agent makes them: the initiator's keys go in the link,
/// the joiner answers with its own, and each side runs X3DH from its own end.
struct RatchetPair {
    var initiator: RatchetState
    var joiner: RatchetState
    let initiatorKeys: RatchetKeyPairs
    let joinerKeys: RatchetKeyPairs

    init() throws {
        initiatorKeys = RatchetKeyPairs.generate()
        joinerKeys = RatchetKeyPairs.generate()
        joiner = try RatchetState.joining(own: joinerKeys, initiator: initiatorKeys.publicKeys)
        initiator = try RatchetState.initiating(own: initiatorKeys, joiner: joinerKeys.publicKeys)
    }
}

/// The padded length the tests encrypt to: small, so debug-build tests with many messages stay fast.
let testPaddedLength = 200

/// A distinct plaintext per (sender, number), so a message decrypted in the wrong place is noticed.
func plaintext(_ sender: String, _ number: Int) -> [UInt8] {
    Array("\(sender) says hello #\(number)".utf8)
}

extension RatchetState {
    /// Encrypts with the tests' padded length.
    mutating func seal(_ message: [UInt8]) throws -> [UInt8] {
        try encrypt(message, paddedLength: testPaddedLength)
    }

    /// The serialised state as an array, to check that a failed call changed nothing.
    var snapshot: [UInt8] { encoded().withUnsafeBytes { Array($0) } }

    /// Expects `decrypt(message)` to fail with `error` and leave the state byte-for-byte unchanged.
    mutating func expectFailure(
        _ message: [UInt8], _ error: RatchetError, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = snapshot
        #expect(throws: error, sourceLocation: sourceLocation) { try self.decrypt(message) }
        #expect(snapshot == before, "state changed by a failed decrypt", sourceLocation: sourceLocation)
    }
}
