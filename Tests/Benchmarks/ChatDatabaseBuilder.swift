// A chat database of a million items for the reading figures, written straight to the schema in one
// transaction with prepared statements (through the chat core it would take hours of fsyncs).
import Foundation
import SimpleXChat

/// What was built: the chats and where the searchable words are.
struct ChatBenchDatabase {
    let groupDirectory: String
    let userId: Int64
    /// Contact ids; `contactIds[0]` is the long chat.
    let contactIds: [Int64]
    let items: Int
    let longChatItems: Int
}

enum ChatDatabaseBuilder {
    static let words = [
        "hello", "see", "you", "tomorrow", "the", "meeting", "is", "at", "noon", "thanks", "for", "photos",
        "what", "about",
        "weekend", "train", "was", "late", "again", "call", "me", "when", "home", "sounds", "good", "coffee",
        "later", "ok",
    ]

    /// `contacts` chats holding `items` items in all; the first chat gets half of them, the rest
    /// share the other half, interleaved in arrival order as a busy account's would be. One item
    /// in 20 is an image, one in 50 of each chat's mentions "lunch", three early items of the
    /// long chat "zebra";
    /// one in 50 has a reaction; the last items of each chat are unread.
    static func build(in groupDirectory: String, contacts: Int, items: Int) throws -> ChatBenchDatabase {
        let user = try ChatController.createUser(
            groupDirectory: groupDirectory, profile: Profile(displayName: "alice", fullName: ""))
        let database = try ChatSchema.openChatDatabase(path: groupDirectory + "/simplex_v1_chat.db")
        try database.execute("PRAGMA synchronous = OFF")
        defer { try? database.execute("PRAGMA synchronous = FULL") }
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        var contactIds: [Int64] = []
        var longChatItems = 0
        var random = SystemRandomNumberGenerator()
        let thumbnail = "data:image/jpg;base64," + String(repeating: "QUJD", count: 256)
        try database.transaction {
            let profile = try database.makeStatement(
                "INSERT INTO contact_profiles (user_id, display_name, full_name, created_at, updated_at) VALUES (?, ?, '', ?, ?)"
            )
            let contact = try database.makeStatement(
                """
                INSERT INTO contacts (user_id, local_display_name, contact_profile_id, chat_ts, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
            let connection = try database.makeStatement(
                """
                INSERT INTO connections (user_id, agent_conn_id, conn_type, conn_status, contact_id, created_at, updated_at)
                VALUES (?, ?, 'contact', 'ready', ?, ?, ?)
                """)
            for index in 0..<contacts {
                let name = index == 0 ? "bob" : "contact\(index)"
                try profile.execute(arguments: [user.userId, name, start, start])
                try contact.execute(arguments: [
                    user.userId, name, database.lastInsertRowID, start, start, start,
                ])
                let contactId = database.lastInsertRowID
                contactIds.append(contactId)
                try connection.execute(arguments: [user.userId, "bench-\(index)", contactId, start, start])
            }
            let item = try database.makeStatement(
                """
                INSERT INTO chat_items (user_id, contact_id, item_sent, item_ts, item_content, item_text, item_status, shared_msg_id,
                  created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let reaction = try database.makeStatement(
                "INSERT INTO chat_item_reactions (chat_item_id, reaction, reaction_sent, created_at) VALUES (?, '👍', 0, ?)"
            )
            let others = contacts - 1
            for index in 0..<items {
                let long = index % 2 == 0 || others == 0
                let chat = long ? contactIds[0] : contactIds[1 + (index / 2) % others]
                if long { longChatItems += 1 }
                let sent = index % 3 == 0
                var text = (0..<Int.random(in: 3...16, using: &random)).map { _ in
                    words.randomElement(using: &random) ?? ""
                }
                .joined(separator: " ")
                // Every 50th of the long chat's (even) and of the others' (odd) indices.
                if (index / 2) % 50 == 7 { text += " lunch?" }
                if long && [1_000, 2_000, 3_000].contains(longChatItems) { text += " zebra" }
                let content: MsgContent = index % 20 == 4 ? .image(text: text, image: thumbnail) : .text(text)
                let unread = !sent && index >= items - 4 * contacts
                let time = start.addingTimeInterval(Double(index) / 1000)
                let shared = (0..<12).map { _ in UInt8.random(in: 0...255, using: &random) }
                try item.execute(arguments: [
                    user.userId, chat, sent, time, content.json.compactText, text,
                    sent ? "snd_rcvd" : (unread ? "rcv_new" : "rcv_read"),
                    shared, time, time,
                ])
                if index % 50 == 3 { try reaction.execute(arguments: [database.lastInsertRowID, time]) }
            }
            try database.execute(
                "UPDATE contacts SET chat_ts = (SELECT created_at FROM chat_items WHERE chat_item_id = contacts.last_chat_item_id)"
            )
        }
        try database.close()
        return ChatBenchDatabase(
            groupDirectory: groupDirectory, userId: user.userId, contactIds: contactIds, items: items,
            longChatItems: longChatItems)
    }

    /// A database `build` made earlier.
    static func existing(in groupDirectory: String) throws -> ChatBenchDatabase {
        let database = try Database(path: groupDirectory + "/simplex_v1_chat.db")
        let userId = try database.fetchValue(Int64.self, "SELECT user_id FROM users") ?? 0
        let contactIds = try database.fetchAll("SELECT contact_id FROM contacts ORDER BY contact_id").map {
            try $0[0] as Int64
        }
        let items = try database.fetchValue(Int.self, "SELECT count(*) FROM chat_items") ?? 0
        let long =
            try database.fetchValue(
                Int.self, "SELECT count(*) FROM chat_items WHERE contact_id = ?",
                arguments: [contactIds.first]) ?? 0
        // Databases built before "lunch" was in the long chat (every 50th index, all odd) would
        // time a search that finds nothing there.
        let lunch =
            try database.fetchValue(
                Int.self, "SELECT count(*) FROM chat_item_search WHERE chat_item_search MATCH ?",
                arguments: ["chat : c\(contactIds.first ?? 0) AND item_text : lunch"]) ?? 0
        guard lunch > 0 else {
            throw RelayBenchError(
                "\(groupDirectory) holds a database built before \"lunch\" was in the long chat: remove it to rebuild")
        }
        return ChatBenchDatabase(
            groupDirectory: groupDirectory, userId: userId, contactIds: contactIds, items: items,
            longChatItems: long)
    }
}
