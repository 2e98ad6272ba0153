import Foundation
import SimpleXCrypto
import Testing

struct SecureBytesTests {
    @Test func zeroFilledInit() {
        let bytes = SecureBytes(count: 48)
        #expect(bytes.count == 48)
        #expect(bytes.array == [UInt8](repeating: 0, count: 48))
    }

    @Test func copyingInitKeepsContents() {
        let source: [UInt8] = [1, 2, 3, 250, 0, 7]
        #expect(SecureBytes(copying: source).array == source)
        #expect(SecureBytes(copying: Data(source)).array == source)
    }

    @Test func initializingWithFillsBuffer() {
        let bytes = SecureBytes(count: 4) { buffer in
            for index in buffer.indices { buffer[index] = UInt8(index + 10) }
        }
        #expect(bytes.array == [10, 11, 12, 13])
    }

    struct Boom: Error {}

    @Test func initializingWithRethrows() {
        #expect(throws: Boom.self) {
            _ = try SecureBytes(count: 8) { _ in throw Boom() }
        }
    }

    @Test func zeroCountIsUsable() {
        let empty = SecureBytes(count: 0)
        #expect(empty.count == 0)
        #expect(empty.array.isEmpty)
        #expect(empty == SecureBytes(copying: [UInt8]()))
        #expect(SecureBytes.random(count: 0).count == 0)
        #expect(empty != SecureBytes(count: 1))
        let filled = SecureBytes(count: 0) { buffer in #expect(buffer.isEmpty) }
        #expect(filled.count == 0)
    }

    @Test func equalityComparesContentsAndLength() {
        let a = SecureBytes(copying: [1, 2, 3] as [UInt8])
        #expect(a == SecureBytes(copying: [1, 2, 3] as [UInt8]))
        #expect(a != SecureBytes(copying: [1, 2, 4] as [UInt8]))
        #expect(a != SecureBytes(copying: [1, 2] as [UInt8]))
        #expect(a != SecureBytes(copying: [1, 2, 3, 0] as [UInt8]))
        // Different lengths with an all-zero common prefix must still differ.
        #expect(SecureBytes(count: 16) != SecureBytes(count: 32))
    }

    @Test func randomBytesDiffer() {
        let a = SecureBytes.random(count: 32)
        let b = SecureBytes.random(count: 32)
        #expect(a.count == 32)
        #expect(a != b)
        #expect(a.array != [UInt8](repeating: 0, count: 32))
    }

    @Test func descriptionsNeverShowContents() {
        let secret = SecureBytes(copying: Array("hunter2-hunter2-hunter2".utf8))
        #expect(secret.description == "SecureBytes(23 bytes)")
        #expect(secret.debugDescription == "SecureBytes(23 bytes)")
        #expect("\(secret)" == "SecureBytes(23 bytes)")
        #expect(String(reflecting: secret) == "SecureBytes(23 bytes)")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("hunter"))
        #expect(!dumped.contains("104"))  // "h" as a decimal byte
        let pair = X25519.KeyPair(publicKey: [1, 2], privateKey: secret)
        #expect(!"\(pair)".contains("hunter"))
        #expect("\(pair)".contains("SecureBytes(23 bytes)"))
    }

    @Test func isSendableAcrossTasks() async {
        let secret = SecureBytes.random(count: 32)
        let copy = await Task.detached { SecureBytes(copying: secret) }.value
        #expect(copy == secret)
    }
}

struct RandomTests {
    @Test func bytesHaveRequestedCountAndVary() {
        #expect(Random.bytes(count: 0).isEmpty)
        let a = Random.bytes(count: 64)
        #expect(a.count == 64)
        #expect(a != Random.bytes(count: 64))
    }

    @Test func fillWritesEveryByteEventually() {
        // 4096 random bytes are all zero with probability 2^-32768: a fill that writes nothing fails.
        var buffer = [UInt8](repeating: 0, count: 4096)
        buffer.withUnsafeMutableBytes { Random.fill($0) }
        #expect(buffer.contains { $0 != 0 })
    }

    @Test func sodiumInitializes() throws {
        try Sodium.initialize()
        try Sodium.initialize()
    }
}
