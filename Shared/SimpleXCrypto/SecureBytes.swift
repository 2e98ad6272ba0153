public import Foundation
internal import CSodium

/// Secret bytes in libsodium guarded memory (`sodium_malloc`; small ones packed by `SecureArena`),
/// zeroed and freed on deinit.
///
/// Never prints its contents; compares in constant time.
public final class SecureBytes: @unchecked Sendable {
    // @unchecked Sendable is safe because the buffer is written only inside an initializer and is
    // immutable afterwards: every later access is a read, so no lock is needed.

    /// nil only when `count == 0`; sodium_malloc memory otherwise.
    private let pointer: UnsafeMutableRawPointer?

    /// The number of bytes held.
    public let count: Int

    /// Allocates guarded memory; out of memory is fatal, as it is for any Swift allocation.
    private init(uninitializedCount count: Int) {
        precondition(count >= 0, "SecureBytes count must not be negative")
        Sodium.requireInitialized()
        self.count = count
        if count == 0 {
            pointer = nil
        } else {
            // Small secrets share guarded pages (SecureArena); larger ones get their own.
            guard let allocated = count <= SecureArena.largest ? SecureArena.shared.allocate(count) : sodium_malloc(count) else {
                fatalError("sodium_malloc(\(count)) failed: out of memory")
            }
            // sodium_malloc fills with 0xdb; start from zeros so a partial initializer leaks nothing.
            sodium_memzero(allocated, count)
            pointer = allocated
        }
    }

    /// Creates `count` zero bytes.
    public convenience init(count: Int) {
        self.init(uninitializedCount: count)
    }

    /// Copies `bytes` into guarded memory.
    public convenience init(copying bytes: some ContiguousBytes) {
        let count = bytes.withUnsafeBytes { $0.count }
        self.init(uninitializedCount: count)
        if let pointer, count > 0 {
            bytes.withUnsafeBytes { source in
                // The count is re-checked because a ContiguousBytes is not bound to be stable.
                pointer.copyMemory(from: source.baseAddress!, byteCount: min(count, source.count))
            }
        }
    }

    /// Creates `count` bytes (zeroed first) and lets `body` fill them; if `body` throws, the memory is wiped and freed.
    public convenience init(
        count: Int, initializingWith body: (UnsafeMutableRawBufferPointer) throws -> Void
    ) rethrows {
        self.init(uninitializedCount: count)
        try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
    }

    /// Creates `count` cryptographically random bytes.
    public static func random(count: Int) -> SecureBytes {
        SecureBytes(count: count) { buffer in
            if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
        }
    }

    deinit {
        // Both zero the memory before letting it go.
        guard let pointer else { return }
        if count <= SecureArena.largest { SecureArena.shared.free(pointer, count: count) } else { sodium_free(pointer) }
    }
}

extension SecureBytes: ContiguousBytes {
    /// Calls `body` with a read-only view of the bytes, valid only for the duration of the call.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}

extension SecureBytes: Equatable {
    /// Constant-time comparison (`sodium_memcmp`); buffers of different lengths are unequal.
    public static func == (lhs: SecureBytes, rhs: SecureBytes) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.pointer, let right = rhs.pointer else { return true }
        return sodium_memcmp(left, right, lhs.count) == 0
    }
}

extension SecureBytes: CustomStringConvertible, CustomDebugStringConvertible {
    /// The length only, e.g. "SecureBytes(32 bytes)"; never the contents.
    public var description: String { "SecureBytes(\(count) bytes)" }

    /// Same as `description`, so `debugPrint` and string interpolation in logs are safe too.
    public var debugDescription: String { description }
}

extension SecureBytes: CustomReflectable {
    /// Hides the stored pointer from `dump` and debuggers' mirrors.
    public var customMirror: Mirror { Mirror(self, children: ["count": count]) }
}
