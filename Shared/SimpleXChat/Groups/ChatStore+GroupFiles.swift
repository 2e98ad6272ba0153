import Foundation
import SimpleXProtocol

/// Files in groups, in `files` with `group_id` and `group_member_id` (see ChatController+GroupFiles).
extension ChatStore {
    /// A group file row: the user's offer (`member` nil, with its item), a transfer to a member who
    /// accepted it (no item), or a member's offer to the user (with its item).
    func insertGroupFile(
        _ user: ChatUser, groupId: Int64, member: GroupMember?, itemId: Int64?, sharedMsgId: SharedMsgID?,
        sent: Bool, name: String, path: String?, size: Int64, digest: [UInt8]?, status: ChatFileStatus
    ) throws(ChatError) -> ChatFile {
        let now = self.now()
        try run(
            """
            INSERT INTO files (user_id, group_id, group_member_id, chat_item_id, file_sent, file_name, file_path,
              file_size, chunk_size, file_digest, ci_file_status, shared_msg_id, created_at, updated_at)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)
            """,
            [
                user.userId, groupId, member?.groupMemberId, itemId, sent, name, path, size,
                FileChunking.smpChunkSize, digest, status.rawValue, sharedMsgId?.bytes, now, now,
            ])
        return ChatFile(
            fileId: lastID, contactId: 0, itemId: itemId, sharedMsgId: sharedMsgId,
            direction: sent ? .sent : .received, fileName: name, fileSize: size, filePath: path,
            status: status,
            digest: digest, chunkSize: FileChunking.smpChunkSize, groupId: groupId,
            groupMemberId: member?.groupMemberId)
    }

    /// The user's offer of file message `sharedMsgId` to the group.
    func groupFileOffer(groupId: Int64, sharedMsgId: SharedMsgID) throws(ChatError) -> ChatFile? {
        try row(
            Self.fileColumns
                + " WHERE group_id = ? AND shared_msg_id = ? AND file_sent = 1 AND group_member_id IS NULL",
            [groupId, sharedMsgId.bytes]
        ).map { row throws(ChatError) in try file(row) }
    }

    /// The transfer of file message `sharedMsgId` to or from `member`.
    func groupFile(groupId: Int64, member: GroupMember, sharedMsgId: SharedMsgID, sent: Bool)
        throws(ChatError)
        -> ChatFile?
    {
        try row(
            Self.fileColumns
                + " WHERE group_id = ? AND group_member_id = ? AND shared_msg_id = ? AND file_sent = ?",
            [groupId, member.groupMemberId, sharedMsgId.bytes, sent]
        ).map { row throws(ChatError) in try file(row) }
    }
}
