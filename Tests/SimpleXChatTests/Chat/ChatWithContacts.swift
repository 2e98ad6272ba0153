import Foundation
import SimpleXCrypto
import TestSupport

@testable import SimpleXChat

/// A chat core on a fresh group directory whose user, alice, has connected contacts (each on
/// connection `conn-<name>`), written through the store before the controller opens; `prepare`
/// writes more there first (items, say). Offline: no agent peer answers.
struct ChatWithContacts {
    let directory: TemporaryDirectory
    let user: ChatUser
    let contacts: [ChatContact]
    let chat: ChatController

    static func open(
        _ label: String, contacts names: [String],
        prepare: (ChatStore, ChatUser, [ChatContact]) throws -> Void = { _, _, _ in }
    ) async throws -> ChatWithContacts {
        let directory = try TemporaryDirectory(label)
        let user = try ChatController.createUser(
            groupDirectory: directory.path, profile: Profile(displayName: "alice", fullName: ""))
        let store = try ChatStore(path: directory.path + "/simplex_v1_chat.db")
        let contacts = try names.map { name in
            try store.insertPendingConnection(user, agentConnectionID: "conn-\(name)")
            let contact = try store.createContact(
                user, profile: Profile(displayName: name, fullName: ""), agentConnectionID: "conn-\(name)")
            try store.setReady(agentConnectionID: "conn-\(name)")
            return contact
        }
        try prepare(store, user, contacts)
        store.close()
        let chat = try await ChatController.open(
            groupDirectory: directory.path, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
        return ChatWithContacts(directory: directory, user: user, contacts: contacts, chat: chat)
    }
}
