import Foundation
import Glibc
import SimpleXChat

/// Shared files are kept in the group directory before they are offered, as the iOS extension
/// copies into the app group: the file is sent when the contact accepts it, by whichever process
/// runs the chat then, and the original may be gone by then (a file manager's temporary copy, a
/// download moved away). On the group's filesystem that is a hard link, which copies nothing (5 MiB
/// copied and synced cost more than the rest of the helper's start); elsewhere a copy, and a file
/// that changes while it is copied is refused: half a file is never offered. A file changed in
/// place after it was shared fails its transfer, as with `/f` (the contact's client checks the
/// digest and says so).
enum SharedFiles {
    /// A new `files/shared-<random>/` of the group for one share's copies.
    static func directory(in groupDirectory: String) throws(ShareSender.Failure) -> String {
        let directory = groupDirectory + "/files/shared-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .init(description: "cannot keep a copy in \(groupDirectory)/files: \(error.localizedDescription)", status: ShareExit.unavailable)
        }
        return directory
    }

    /// Keeps `path` in `directory` (under its name, which the contact sees, unless another file
    /// of the share has it): a hard link, else a copy; returns the kept file's path.
    static func keep(_ path: String, into directory: String) throws(ShareSender.Failure) -> String {
        let target = FileNames.unique(FileNames.sanitized((path as NSString).lastPathComponent), in: directory) {
            FileManager.default.fileExists(atPath: $0)
        }
        // EXDEV (another filesystem) or EPERM (no hard links there, or fs.protected_hardlinks for
        // another user's file): copied instead.
        guard link(path, target) == 0 else { return try copy(path, to: target) }
        return target
    }

    /// Copies `path` to `target`; returns `target`.
    static func copy(_ path: String, to target: String) throws(ShareSender.Failure) -> String {
        let before = fileState(path)
        do {
            guard let source = FileHandle(forReadingAtPath: path) else {
                throw ShareSender.Failure(description: "\(path): cannot be read", status: ShareExit.noInput)
            }
            defer { try? source.close() }
            guard FileManager.default.createFile(atPath: target, contents: nil, attributes: [.posixPermissions: 0o600]),
                let destination = FileHandle(forWritingAtPath: target)
            else {
                throw ShareSender.Failure(description: "cannot write \(target)", status: ShareExit.unavailable)
            }
            defer { try? destination.close() }
            while let chunk = try source.read(upToCount: 1 << 20), !chunk.isEmpty { try destination.write(contentsOf: chunk) }
            try destination.synchronize()
        } catch let failure as ShareSender.Failure {
            remove(target)
            throw failure
        } catch {
            remove(target)
            throw .init(description: "\(path): \(error.localizedDescription)", status: ShareExit.noInput)
        }
        guard let before, fileState(path) == before, fileState(target)?.size == before.size else {
            remove(target)
            throw .init(
                description: "\(path) changed while it was read: share it again once it is complete", status: ShareExit.dataError)
        }
        return target
    }

    /// Removes copies made for a share that then failed.
    static func remove(_ path: String) { try? FileManager.default.removeItem(atPath: path) }

    private struct State: Equatable {
        let size: Int64
        let modified: Int
        let modifiedNanoseconds: Int
    }

    private static func fileState(_ path: String) -> State? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return State(size: Int64(status.st_size), modified: status.st_mtim.tv_sec, modifiedNanoseconds: status.st_mtim.tv_nsec)
    }
}
