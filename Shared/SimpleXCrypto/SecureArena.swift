internal import CSodium
import Synchronization

/// Guarded memory for small secrets (keys, chain states: up to 512 bytes), packed many to a page.
///
/// `sodium_malloc` gives each allocation its own pages: the secret's page, a guard page on each
/// side and a canary, mlocked and kept out of core dumps. For a 32-byte key that is 8 KiB of
/// locked memory and four kernel mappings. The agent holds several keys per contact (queue,
/// ratchet and shared keys, relay-session authenticators): with a thousand contacts the service
/// held 16,000 mappings and 32 MB idle, and since a process may have at most 65,530 mappings
/// (`vm.max_map_count`), about 1,350 active contacts would have made `sodium_malloc` fail.
///
/// So small secrets are slots in 64 KiB chunks that are themselves `sodium_malloc` regions —
/// still mlocked (never swapped), still excluded from core dumps, still with guard pages around
/// each chunk — but without a guard page between two secrets of one chunk. Each slot is zeroed
/// when freed and again when handed out. Chunks are kept for reuse, never unmapped: the process's
/// secret memory stays at its high-water mark. No library does this for us: libsodium has only the
/// per-allocation form.
final class SecureArena: Sendable {
    /// The process's arena, which `SecureBytes` and `SecureBuffer` use.
    static let shared = SecureArena()

    /// Slot sizes; a request takes the smallest that fits.
    static let slotSizes = [16, 32, 64, 128, 256, 512]
    static let largest = 512
    static let chunkSize = 64 * 1024

    private struct State {
        /// Free slots per size class, as addresses (a raw pointer is not Sendable).
        var free: [[UInt]] = Array(repeating: [], count: SecureArena.slotSizes.count)
        var chunks = 0
    }

    private let state = Mutex(State())

    init() {}

    /// How many chunks have been mapped (tests).
    var chunkCount: Int { state.withLock { $0.chunks } }

    static func sizeClass(for count: Int) -> Int? { slotSizes.firstIndex { $0 >= count } }

    /// `count` zero bytes (1...512) of guarded memory; out of memory is fatal.
    func allocate(_ count: Int) -> UnsafeMutableRawPointer {
        guard let sizeClass = Self.sizeClass(for: count) else { preconditionFailure("SecureArena slot for \(count) bytes") }
        let address = state.withLock { state -> UInt in
            if let slot = state.free[sizeClass].popLast() { return slot }
            let slotSize = Self.slotSizes[sizeClass]
            guard let chunk = sodium_malloc(Self.chunkSize) else {
                fatalError("sodium_malloc(\(Self.chunkSize)) failed: out of memory")
            }
            state.chunks += 1
            let base = UInt(bitPattern: chunk)
            // The first slot is returned; the others wait, in address order.
            state.free[sizeClass] += stride(from: Self.chunkSize / slotSize - 1, to: 0, by: -1).map {
                base + UInt($0 * slotSize)
            }
            return base
        }
        let pointer = UnsafeMutableRawPointer(bitPattern: address)!
        sodium_memzero(pointer, Self.slotSizes[sizeClass])
        return pointer
    }

    /// Zeroes the slot of `pointer` (allocated for `count` bytes) and makes it free again.
    func free(_ pointer: UnsafeMutableRawPointer, count: Int) {
        guard let sizeClass = Self.sizeClass(for: count) else { preconditionFailure("SecureArena slot for \(count) bytes") }
        sodium_memzero(pointer, Self.slotSizes[sizeClass])
        let address = UInt(bitPattern: pointer)
        state.withLock { $0.free[sizeClass].append(address) }
    }
}
