import Foundation
import SimpleXCrypto

extension ChatStore {
    static let fileColumns = """
        SELECT file_id, contact_id, chat_item_id, file_sent, file_name, file_path, file_size, chunk_size, file_digest,
          ci_file_status, shared_msg_id, group_id, group_member_id, file_key FROM files
        """

    func file(_ row: Row) throws(ChatError) -> ChatFile {
        let status: String = try value(row, "ci_file_status")
        let sent: Bool = try value(row, "file_sent")
        let shared: [UInt8]? = try value(row, "shared_msg_id")
        let key: [UInt8]? = try value(row, "file_key")
        var file = ChatFile(
            fileId: try value(row, "file_id"), contactId: (try value(row, "contact_id") as Int64?) ?? 0,
            itemId: try value(row, "chat_item_id"),
            sharedMsgId: shared.map { SharedMsgID(bytes: $0) }, direction: sent ? .sent : .received,
            fileName: try value(row, "file_name"), fileSize: try value(row, "file_size"),
            filePath: try value(row, "file_path"),
            status: ChatFileStatus(rawValue: status) ?? (sent ? .sndError : .rcvError),
            digest: try value(row, "file_digest"), chunkSize: Int(try value(row, "chunk_size") as Int64),
            groupId: try value(row, "group_id"), groupMemberId: try value(row, "group_member_id"))
        file.fileKey = key.map { SecureBytes(copying: $0) }
        return file
    }

    /// Stores a file offered by the user or to the user, with the item that offered it.
    func insertFile(
        _ user: ChatUser, contact: ChatContact, item: ChatItem, name: String, path: String?, size: Int64,
        digest: [UInt8]?,
        status: ChatFileStatus
    ) throws(ChatError) -> ChatFile {
        let now = self.now()
        try run(
            """
            INSERT INTO files (user_id, contact_id, chat_item_id, file_sent, file_name, file_path, file_size, chunk_size, file_digest,
              ci_file_status, shared_msg_id, created_at, updated_at)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)
            """,
            [
                user.userId, contact.contactId, item.itemId, item.direction == .sent, name, path, size,
                FileChunking.smpChunkSize, digest,
                status.rawValue, item.sharedMsgId?.bytes, now, now,
            ])
        return ChatFile(
            fileId: lastID, contactId: contact.contactId, itemId: item.itemId, sharedMsgId: item.sharedMsgId,
            direction: item.direction, fileName: name, fileSize: size,
            filePath: path, status: status, digest: digest, chunkSize: FileChunking.smpChunkSize)
    }

    func file(id: Int64, _ user: ChatUser) throws(ChatError) -> ChatFile {
        guard let row = try row(Self.fileColumns + " WHERE user_id = ? AND file_id = ?", [user.userId, id])
        else {
            throw .file(.noFile(id))
        }
        return try file(row)
    }

    func file(agentConnectionID id: String) throws(ChatError) -> ChatFile? {
        try row(Self.fileColumns + " WHERE agent_conn_id = ?", [id]).map { row throws(ChatError) in
            try file(row)
        }
    }

    func file(_ contact: ChatContact, sharedMsgId: SharedMsgID, sent: Bool) throws(ChatError) -> ChatFile? {
        try row(
            Self.fileColumns + " WHERE contact_id = ? AND shared_msg_id = ? AND file_sent = ?",
            [contact.contactId, sharedMsgId.bytes, sent]
        ).map { row throws(ChatError) in try file(row) }
    }

    func file(itemId: Int64) throws(ChatError) -> ChatFile? {
        try row(Self.fileColumns + " WHERE chat_item_id = ?", [itemId]).map { row throws(ChatError) in
            try file(row)
        }
    }

    /// The agent id of the file's connection.
    func fileConnection(_ file: ChatFile) throws(ChatError) -> String? {
        guard let row = try row("SELECT agent_conn_id FROM files WHERE file_id = ?", [file.fileId]) else {
            return nil
        }
        let id: String? = try value(row, "agent_conn_id")
        return id
    }

    /// The files of a chat's items.
    func files(contactId: Int64) throws(ChatError) -> [ChatFile] {
        var files: [ChatFile] = []
        for row in try rows(Self.fileColumns + " WHERE contact_id = ?", [contactId]) {
            files.append(try file(row))
        }
        return files
    }

    /// Files with a transfer under way (resumed at start).
    func unfinishedFiles(_ user: ChatUser) throws(ChatError) -> [ChatFile] {
        var files: [ChatFile] = []
        for status in [ChatFileStatus.sndStored, .sndTransfer, .rcvAccepted] {
            for row in try rows(
                Self.fileColumns + " WHERE user_id = ? AND ci_file_status = ?",
                [user.userId, status.rawValue])
            {
                files.append(try file(row))
            }
        }
        return files
    }

    func setFileStatus(_ file: ChatFile, _ status: ChatFileStatus) throws(ChatError) {
        try run(
            "UPDATE files SET ci_file_status = ?, updated_at = ? WHERE file_id = ?",
            [status.rawValue, now(), file.fileId])
    }

    func setFilePath(_ file: ChatFile, _ path: String) throws(ChatError) {
        try run(
            "UPDATE files SET file_path = ?, updated_at = ? WHERE file_id = ?", [path, now(), file.fileId])
    }

    /// The file's connection, or none (it was deleted).
    func setFileConnection(_ file: ChatFile, _ agentConnectionID: String?) throws(ChatError) {
        try run(
            "UPDATE files SET agent_conn_id = ?, updated_at = ? WHERE file_id = ?",
            [agentConnectionID, now(), file.fileId])
    }

    /// A final status, and the chunk records it no longer needs. The connection id stays: events
    /// that come late on it are still recognised as the file's, not taken for a contact's.
    func finishFile(_ file: ChatFile, _ status: ChatFileStatus) throws(ChatError) {
        try transaction { () throws(ChatError) in
            try run(
                "UPDATE files SET ci_file_status = ?, updated_at = ? WHERE file_id = ?",
                [status.rawValue, now(), file.fileId])
            try run("DELETE FROM snd_file_chunks WHERE file_id = ?", [file.fileId])
            try run("DELETE FROM rcv_file_chunks WHERE file_id = ?", [file.fileId])
        }
    }

    // MARK: - Chunks sent

    /// Forgets the chunks the relay had not accepted before a restart, so they are handed to the
    /// agent again: a SENT the app never saw is not reported twice, and the receiver ignores a
    /// chunk that arrives twice. The agent sends in order, so what stays is chunks 1...n.
    func forgetUnsentChunks(_ file: ChatFile) throws(ChatError) {
        try run(
            """
            DELETE FROM snd_file_chunks WHERE file_id = ?1
              AND chunk_number >= (SELECT min(chunk_number) FROM snd_file_chunks WHERE file_id = ?1 AND chunk_sent = 0)
            """, [file.fileId])
    }

    /// How many chunks were handed to the agent, and how many of those the relay has not accepted yet.
    func sndChunkCounts(_ file: ChatFile) throws(ChatError) -> (queued: Int, unsent: Int) {
        guard
            let row = try row(
                "SELECT count(*) AS queued, coalesce(sum(chunk_sent = 0), 0) AS unsent FROM snd_file_chunks WHERE file_id = ?",
                [file.fileId])
        else { return (0, 0) }
        return (Int(try value(row, "queued") as Int64), Int(try value(row, "unsent") as Int64))
    }

    func insertSndChunk(_ file: ChatFile, number: Int, agentMsgID: Int64) throws(ChatError) {
        try run(
            "INSERT OR REPLACE INTO snd_file_chunks (file_id, chunk_number, chunk_agent_msg_id, chunk_sent) VALUES (?, ?, ?, 0)",
            [file.fileId, number, agentMsgID])
    }

    /// Marks the chunk sent as agent message `agentMsgID` accepted by the relay; false when no chunk was.
    func markSndChunkSent(_ file: ChatFile, agentMsgID: Int64) throws(ChatError) -> Bool {
        try run(
            "UPDATE snd_file_chunks SET chunk_sent = 1 WHERE file_id = ? AND chunk_agent_msg_id = ? AND chunk_sent = 0",
            [file.fileId, agentMsgID])
        return database.changes > 0
    }

    // MARK: - Chunks received

    /// Records a chunk written to the partial file; false when it was recorded before (a duplicate).
    func insertRcvChunk(_ file: ChatFile, number: Int) throws(ChatError) -> Bool {
        try run(
            "INSERT OR IGNORE INTO rcv_file_chunks (file_id, chunk_number, created_at) VALUES (?, ?, ?)",
            [file.fileId, number, now()])
        return database.changes > 0
    }

    func rcvChunkCount(_ file: ChatFile) throws(ChatError) -> Int {
        Int(
            try row("SELECT count(*) AS n FROM rcv_file_chunks WHERE file_id = ?", [file.fileId]).map {
                row throws(ChatError) in
                try value(row, "n") as Int64
            } ?? 0)
    }
}

extension ChatStore {
    /// The key the file is sealed with at rest, or none (a plain file).
    func setFileKey(_ file: ChatFile, _ key: SecureBytes?) throws(ChatError) {
        let bytes: [UInt8]? = key.map { key in key.withUnsafeBytes { Array($0) } }
        try run("UPDATE files SET file_key = ?, updated_at = ? WHERE file_id = ?", [bytes, now(), file.fileId])
    }

    /// The key of the sealed file at `path` in `files/` (a received file), when there is one.
    func localFileKey(path: String) throws(ChatError) -> SecureBytes? {
        guard
            let row = try row(
                "SELECT file_key FROM files WHERE file_path = ? AND file_key IS NOT NULL ORDER BY file_id LIMIT 1",
                [path])
        else { return nil }
        let key: [UInt8]? = try value(row, "file_key")
        return key.map { SecureBytes(copying: $0) }
    }

    /// The user accepted a received file: where it goes, and the connection it comes on.
    func acceptFile(_ file: ChatFile, path: String, agentConnectionID: String) throws(ChatError) {
        try run(
            "UPDATE files SET file_path = ?, agent_conn_id = ?, ci_file_status = ?, updated_at = ? WHERE file_id = ?",
            [path, agentConnectionID, ChatFileStatus.rcvAccepted.rawValue, now(), file.fileId])
    }
}
