import Foundation

extension CLIUser {
    /// File `id`'s contents as the client saves them (`/fsave`, decrypted when sealed at rest),
    /// written outside the group directory and read back.
    public func savedFile(_ id: Int) async throws -> [UInt8] {
        let target = directory.appending("saved-\(id)-\(UInt32.random(in: 0...UInt32.max)).out")
        send("/fsave \(id) \(target)")
        _ = try await expectLine("file \(id) saved to " + NSRegularExpression.escapedPattern(for: target))
        guard let data = FileManager.default.contents(atPath: target) else {
            throw CLIUserFileError(description: "no file at \(target)")
        }
        return [UInt8](data)
    }

    /// Every byte under the user's group directory (databases, WAL, files, tmp), file by file.
    public func groupDirectoryBytes() throws -> [(path: String, bytes: [UInt8])] {
        let root = directory.appending("group")
        var found: [(String, [UInt8])] = []
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        while let relative = walker.nextObject() as? String {
            let path = root + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                let data = FileManager.default.contents(atPath: path)
            else { continue }
            found.append((path, [UInt8](data)))
        }
        return found
    }
}

/// A file the test expected is not there.
public struct CLIUserFileError: Error, CustomStringConvertible {
    public let description: String
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in these bytes.
    public func containsBytes(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        let first = needle[0]
        var i = 0
        let last = count - needle.count
        while i <= last {
            if self[i] == first, self[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
