import Foundation

/// A fresh directory under the system temp dir, mode 0700, removed when the value is released.
/// Every test makes its own, so tests running in parallel never share state.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "test") throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template = Array("\(base)/simplex-\(label)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        guard let made else { throw TestSupportError("mkdtemp failed for \(label): errno \(errno)") }
        path = made
    }

    /// The path of `name` inside this directory.
    public func appending(_ name: String) -> String { "\(path)/\(name)" }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// An error raised by test plumbing (not by the code under test).
public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The permission bits of a file, for asserting 0600 / 0700.
public func permissions(of path: String) throws -> Int {
    var st = stat()
    guard stat(path, &st) == 0 else { throw TestSupportError("stat \(path): errno \(errno)") }
    return Int(st.st_mode & 0o777)
}
