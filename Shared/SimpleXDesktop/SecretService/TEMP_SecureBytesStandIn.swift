// TEMPORARY: delete this file when merging with the crypto branch, whose SimpleXCrypto defines
// the real `SecureBytes` (sodium_malloc memory). This stand-in exists only so the Secret Service
// client compiles and is tested in the wt-dbus worktree, where SimpleXCrypto is still a placeholder.
// It has the same public surface the client uses: count, init(count:initializingWith:),
// withUnsafeBytes (ContiguousBytes), Sendable, and a description that never shows the bytes.
import Foundation

/// TEMPORARY stand-in for `SimpleXCrypto.SecureBytes` (see the file comment).
public final class SecureBytes: @unchecked Sendable, ContiguousBytes, CustomStringConvertible {
    // @unchecked Sendable: written only inside the initializer, read-only afterwards (as the real type).
    private let pointer: UnsafeMutableRawPointer
    public let count: Int

    public init(
        count: Int, initializingWith body: (UnsafeMutableRawBufferPointer) throws -> Void
    ) rethrows {
        self.count = count
        pointer = .allocate(byteCount: max(count, 1), alignment: 16)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
        do {
            try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
        } catch {
            pointer.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
            pointer.deallocate()
            throw error
        }
    }

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    public var description: String { "SecureBytes(\(count) bytes)" }

    deinit {
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: max(count, 1))
        pointer.deallocate()
    }
}
