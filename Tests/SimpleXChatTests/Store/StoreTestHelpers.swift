import Foundation
import SimpleXChat
import TestSupport

/// The bytes of the file at `path`, to assert that a refused open left it untouched.
func fileBytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

func fileExists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}

/// A fixed clock for rows: the schema takes timestamps from the caller, not from SQL defaults.
let testNow = Date(timeIntervalSince1970: 1_795_000_000.123)

extension Database {
    /// Creates a user with its own profile the way the chat core will: user, profile, link.
    func insertUser(_ name: String, active: Bool = true) throws -> Int64 {
        try transaction {
            try execute(
                "INSERT INTO users (local_display_name, active_user, created_at, updated_at) VALUES (?, ?, ?, ?)",
                arguments: [name, active, testNow, testNow])
            let userID = lastInsertRowID
            try execute(
                """
                INSERT INTO contact_profiles (user_id, display_name, created_at, updated_at)
                VALUES (?, ?, ?, ?)
                """, arguments: [userID, name, testNow, testNow])
            try execute(
                "UPDATE users SET contact_profile_id = ? WHERE user_id = ?",
                arguments: [lastInsertRowID, userID])
            return userID
        }
    }

    func insertContact(_ name: String, userID: Int64) throws -> Int64 {
        try execute(
            """
            INSERT INTO contact_profiles (user_id, display_name, full_name, created_at, updated_at)
            VALUES (?, ?, '', ?, ?)
            """, arguments: [userID, name, testNow, testNow])
        try execute(
            """
            INSERT INTO contacts (user_id, local_display_name, contact_profile_id, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?)
            """, arguments: [userID, name, lastInsertRowID, testNow, testNow])
        let contactID = lastInsertRowID
        try execute(
            """
            INSERT INTO connections (user_id, agent_conn_id, conn_type, conn_status, contact_id,
              created_at, updated_at)
            VALUES (?, ?, 'contact', 'ready', ?, ?, ?)
            """, arguments: [userID, Array("conn-\(userID)-\(name)".utf8), contactID, testNow, testNow])
        return contactID
    }

    func insertItem(
        userID: Int64, contactID: Int64, text: String, sent: Bool = false, status: String = "rcv_new",
        sharedMsgID: [UInt8]? = nil
    ) throws -> Int64 {
        try execute(
            """
            INSERT INTO chat_items (user_id, contact_id, item_sent, item_ts, item_content, item_text,
              item_status, shared_msg_id, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            arguments: [
                userID, contactID, sent, testNow, #"{"type":"rcvMsgContent"}"#, text, status, sharedMsgID,
                testNow, testNow,
            ])
        return lastInsertRowID
    }

    func count(_ table: String) throws -> Int {
        try fetchValue(Int.self, "SELECT COUNT(*) FROM \(table)") ?? 0
    }
}
