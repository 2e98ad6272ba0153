import Foundation
import Testing

@testable import SimpleXCrypto

/// Small secrets share guarded chunks: thousands of keys cost a few mappings, not four each, and a
/// freed slot comes back zeroed.
@Suite struct SecureArenaTests {
    /// The process's memory mappings (`/proc/self/maps` lines).
    static func mappings() throws -> Int {
        let bytes = [UInt8](try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd() ?? Data())
        return bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    @Test func tenThousandKeysTakeAFewChunksNotFortyThousandMappings() throws {
        let before = try Self.mappings()
        let keys = (0..<10_000).map { _ in SecureBytes.random(count: 32) }
        let after = try Self.mappings()
        // 10,000 × 32 bytes is five 64 KiB chunks; with sodium_malloc each it was 40,000 mappings.
        #expect(after - before < 200, "\(after - before) new mappings for 10,000 keys")
        #expect(Set(keys.map { $0.withUnsafeBytes { Array($0) } }).count == keys.count)
        #expect(keys.allSatisfy { $0.count == 32 })
    }

    @Test func aFreedSlotIsZeroedAndReusedAndChunksAreFilledBeforeANewOne() {
        let arena = SecureArena()
        let first = arena.allocate(32)
        first.storeBytes(of: UInt64.max, as: UInt64.self)
        arena.free(first, count: 32)
        let again = arena.allocate(32)
        #expect(again == first)
        #expect(UnsafeRawBufferPointer(start: again, count: 32).allSatisfy { $0 == 0 })
        // One chunk holds 2,048 slots of 32 bytes, in order; the next one starts a second chunk.
        var held = [again]
        for _ in 1..<(SecureArena.chunkSize / 32) { held.append(arena.allocate(32)) }
        #expect(arena.chunkCount == 1)
        #expect(Set(held).count == held.count)
        held.append(arena.allocate(17))  // 32-byte class too
        #expect(arena.chunkCount == 2)
        for pointer in held { arena.free(pointer, count: 32) }
        #expect(arena.chunkCount == 2)
    }

    @Test func largerSecretsKeepTheirOwnAllocationAndAllSizesRoundTrip() {
        for count in [1, 16, 17, 32, 33, 64, 200, 512, 513, 4_096] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
            let secret = SecureBytes(copying: bytes)
            #expect(secret.withUnsafeBytes { Array($0) } == bytes, "\(count)")
            let buffer = SecureBuffer(count: count)
            buffer.withUnsafeMutableBytes { $0.copyBytes(from: bytes) }
            #expect(buffer.copy().withUnsafeBytes { Array($0) } == bytes, "\(count)")
        }
    }
}
