import Glibc

/// Seed 002's Chat data rows for files: how much `files/` holds, and deleting all of it.
extension ChatController {
    /// The files in `files/` (received files, sealed or not) and the bytes they take on disk.
    public func localFilesUsage() -> (count: Int, bytes: Int64) { Self.localFilesUsage(filesDirectory: filesDirectory) }

    /// The same for a group directory's `files/` whose core is stopped (Chat data).
    public static func localFilesUsage(filesDirectory: String) -> (count: Int, bytes: Int64) {
        var count = 0
        var bytes: Int64 = 0
        for name in entries(of: filesDirectory) {
            var st = stat()
            guard stat(filesDirectory + "/" + name, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
            count += 1
            bytes += Int64(st.st_size)
        }
        return (count, bytes)
    }

    /// Deletes every file in `files/` (SimpleX's "Delete all files"): the messages stay, their
    /// files are gone (saving or opening one then says so). Transfers under way go on; files
    /// the user received into a path of their own are theirs and stay. Returns how many went.
    public func deleteAllFiles() throws(ChatError) -> Int {
        try store.forgetLocalFiles(under: filesDirectory + "/")
        var removed = 0
        for name in Self.entries(of: filesDirectory) {
            var st = stat()
            let path = filesDirectory + "/" + name
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    private static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}

extension ChatStore {
    /// Complete received files under `prefix` lose their path and key (their bytes are deleted).
    func forgetLocalFiles(under prefix: String) throws(ChatError) {
        try run(
            """
            UPDATE files SET file_path = NULL, file_key = NULL, updated_at = ?
            WHERE file_sent = 0 AND ci_file_status = ? AND substr(file_path, 1, length(?)) = ?
            """, [now(), ChatFileStatus.rcvComplete.rawValue, prefix, prefix])
    }
}
