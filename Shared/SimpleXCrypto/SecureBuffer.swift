public import Foundation
internal import CSodium

/// A fixed-size, mutable secret buffer in libsodium guarded memory (`sodium_malloc`), allocated
/// once and rewritten in place; zeroed and freed on deinit.
///
/// For state that changes on every use, such as a transport chain key, where a `SecureBytes` per
/// step would cost an mmap, an mprotect and an mlock each time. A value type holding one must
/// copy it before writing when it is shared (`isKnownUniquelyReferenced`, then `copy()`).
public final class SecureBuffer: @unchecked Sendable {
    // @unchecked Sendable: the class has no lock. It is safe as its owners use it: a value type
    // that writes only through a uniquely referenced instance (copy-on-write), so no instance is
    // written while another thread can read it.

    /// sodium_malloc memory; nil only when `count == 0`.
    private let pointer: UnsafeMutableRawPointer?

    /// The number of bytes held.
    public let count: Int

    /// Allocates `count` zero bytes of guarded memory; out of memory is fatal, as for any Swift allocation.
    public init(count: Int) {
        precondition(count >= 0, "SecureBuffer count must not be negative")
        Sodium.requireInitialized()
        self.count = count
        if count == 0 {
            pointer = nil
        } else {
            // Small secrets share guarded pages (SecureArena); larger ones get their own.
            guard let allocated = count <= SecureArena.largest ? SecureArena.shared.allocate(count) : sodium_malloc(count) else {
                fatalError("sodium_malloc(\(count)) failed: out of memory")
            }
            sodium_memzero(allocated, count)
            pointer = allocated
        }
    }

    /// A new buffer with the same bytes (one guarded allocation).
    public func copy() -> SecureBuffer {
        let result = SecureBuffer(count: count)
        if let pointer, let target = result.pointer { target.copyMemory(from: pointer, byteCount: count) }
        return result
    }

    /// Calls `body` with a writable view of the bytes, valid only for the duration of the call.
    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
    }

    /// Overwrites every byte with zeros.
    public func zero() {
        if let pointer { sodium_memzero(pointer, count) }
    }

    deinit {
        // Both zero the memory before letting it go.
        guard let pointer else { return }
        if count <= SecureArena.largest { SecureArena.shared.free(pointer, count: count) } else { sodium_free(pointer) }
    }
}

extension SecureBuffer: ContiguousBytes {
    /// Calls `body` with a read-only view of the bytes, valid only for the duration of the call.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

extension SecureBuffer: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The length only, e.g. "SecureBuffer(224 bytes)"; never the contents.
    public var description: String { "SecureBuffer(\(count) bytes)" }
    /// Same as `description`, so logs stay safe.
    public var debugDescription: String { description }
    /// Hides the stored pointer from `dump` and debuggers' mirrors.
    public var customMirror: Mirror { Mirror(self, children: ["count": count]) }
}
