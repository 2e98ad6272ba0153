extension ChatSchema {
    /// Files sealed at rest (privacyEncryptLocalFiles): the per-file key `file_path` is sealed
    /// with (`LocalFileCipher`), NULL for a plain file. The database is encrypted itself, so the
    /// key is never on disk in the clear. The path index finds the key of a received file that the
    /// user sends on (forwarding, the share helper).
    static let localFileKeys = """
        ALTER TABLE files ADD COLUMN file_key BLOB;
        CREATE INDEX idx_files_file_path ON files (file_path);
        """
}
