@testable import SimpleXCrypto
import Testing

/// Round trips and long conversations through the public encrypt/decrypt API.
struct RatchetTests {
    @Test func roundTripBothWays() throws {
        var pair = try RatchetPair()
        // The initiator has no sending chain until the joiner's first message arrives.
        #expect(!pair.initiator.canSend)
        #expect(throws: RatchetError.noSendingChain) { try pair.initiator.seal(plaintext("initiator", 0)) }
        #expect(pair.joiner.canSend)

        let first = try pair.joiner.seal(plaintext("joiner", 0))
        #expect(try pair.initiator.decrypt(first) == plaintext("joiner", 0))
        #expect(pair.initiator.canSend)

        let reply = try pair.initiator.seal(plaintext("initiator", 0))
        #expect(try pair.joiner.decrypt(reply) == plaintext("initiator", 0))
        let again = try pair.joiner.seal(plaintext("joiner", 1))
        #expect(try pair.initiator.decrypt(again) == plaintext("joiner", 1))
    }

    @Test func emptyAndFullMessages() throws {
        var pair = try RatchetPair()
        let full = [UInt8](repeating: 0xa5, count: testPaddedLength - 2)
        for message in [[], full, [0]] {
            let sealed = try pair.joiner.seal(message)
            #expect(sealed.count == RatchetState.encryptedLength(paddedLength: testPaddedLength))
            #expect(try pair.initiator.decrypt(sealed) == message)
        }
    }

    @Test func everyMessageHasTheSameLength() throws {
        var pair = try RatchetPair()
        var lengths: Set<Int> = []
        for size in [0, 1, 17, 100, testPaddedLength - 2] {
            lengths.insert(try pair.joiner.seal([UInt8](repeating: 7, count: size)).count)
        }
        #expect(lengths == [testPaddedLength + 148])
    }

    @Test func tooLargeMessageIsRefusedWithoutAdvancing() throws {
        var pair = try RatchetPair()
        let before = pair.joiner.snapshot
        #expect(
            throws: RatchetError.messageTooLarge(length: testPaddedLength - 1, paddedLength: testPaddedLength)
        ) {
            try pair.joiner.seal([UInt8](repeating: 1, count: testPaddedLength - 1))
        }
        #expect(pair.joiner.snapshot == before)
        #expect(throws: RatchetError.messageTooLarge(length: 0, paddedLength: 1)) {
            try pair.joiner.encrypt([UInt8](), paddedLength: 1)
        }
    }

    @Test func sameMessageEncryptsDifferently() throws {
        var pair = try RatchetPair()
        let message = plaintext("joiner", 0)
        let a = try pair.joiner.seal(message)
        let b = try pair.joiner.seal(message)
        #expect(a != b)
        #expect(try pair.initiator.decrypt(a) == message)
        #expect(try pair.initiator.decrypt(b) == message)
    }

    /// Header encryption: neither the ratchet key nor the message counters appear in the clear.
    @Test func headerIsEncrypted() throws {
        var pair = try RatchetPair()
        let key = pair.joiner.ratchetPublicKey
        let sealed = try pair.joiner.seal(plaintext("joiner", 0))
        let windows = (0...(sealed.count - key.count)).map { Array(sealed[$0..<$0 + key.count]) }
        #expect(!windows.contains(key))
        // The padding filler would fill most of a short message's body if the body were not encrypted.
        #expect(sealed.filter { $0 == UInt8(ascii: "#") }.count < 20)
    }

    /// Bursts of 1–4 messages from alternating sides, each delivered in order: every message
    /// decrypts to what was sent, each turn of the conversation is a DH step, no key is left over.
    @Test func longAlternatingConversation() throws {
        var pair = try RatchetPair()
        var generator = SplitMix64(seed: 42)
        var sent = ["joiner": 0, "initiator": 0]
        var ratchetKeys: Set<[UInt8]> = []
        for turn in 0..<300 {
            let fromJoiner = turn.isMultiple(of: 2)
            let name = fromJoiner ? "joiner" : "initiator"
            for _ in 0..<Int(generator.next() % 4 + 1) {
                let message = plaintext(name, sent[name]!)
                sent[name]! += 1
                if fromJoiner {
                    let sealed = try pair.joiner.seal(message)
                    #expect(try pair.initiator.decrypt(sealed) == message)
                } else {
                    let sealed = try pair.initiator.seal(message)
                    #expect(try pair.joiner.decrypt(sealed) == message)
                }
            }
            ratchetKeys.insert(fromJoiner ? pair.joiner.ratchetPublicKey : pair.initiator.ratchetPublicKey)
        }
        // A fresh DH ratchet key for every turn after the joiner's first.
        #expect(ratchetKeys.count == 300)
        #expect(pair.joiner.skippedMessageKeyCount == 0)
        #expect(pair.initiator.skippedMessageKeyCount == 0)
    }

    /// Copies share the secret buffer until one writes; the other must keep its own chain.
    @Test func copiesAreIndependent() throws {
        var pair = try RatchetPair()
        var copy = pair.joiner
        let message = plaintext("joiner", 0)
        let fromOriginal = try pair.joiner.seal(message)
        let fromCopy = try copy.seal(message)
        // Same chain key and number: encryption is deterministic, so a copy untouched by the
        // original's write produces the very same bytes.
        #expect(fromOriginal == fromCopy)
        var receiverCopy = pair.initiator
        #expect(try pair.initiator.decrypt(fromOriginal) == message)
        #expect(try receiverCopy.decrypt(fromCopy) == message)
        #expect(pair.joiner.snapshot == copy.snapshot)
    }
}

/// A small deterministic generator, so a failing conversation can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
