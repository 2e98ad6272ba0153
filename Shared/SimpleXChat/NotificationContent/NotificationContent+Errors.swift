// Notifications for what arrived but could not be read (iOS `createErrorNtf`, `createAppStoppedNtf`,
// `createConnectionEventNtf`): the receiving service knows a message came, but not what it says.

extension NotificationContent {
    /// Why the receiving service could not open the chat database to read a message
    /// (iOS `DBMigrationResult` errors).
    public enum EncryptedMessageError: Sendable, Equatable, CaseIterable {
        /// The database is encrypted and no passphrase is stored (iOS `errorNotADatabase`).
        case noPassphrase
        /// The database needs a migration this process may not run (iOS `errorMigration`).
        case databaseMigration
        /// SQLite failed (iOS `errorSQL`).
        case database
        /// The keychain could not be read (iOS `errorKeychain`).
        case keychain
        /// Anything else (iOS `unknown`).
        case unexpected

        var title: String {
            switch self {
            case .noPassphrase: "Encrypted message: no passphrase"
            case .databaseMigration: "Encrypted message: database migration error"
            case .database: "Encrypted message: database error"
            case .keychain: "Encrypted message: keychain error"
            case .unexpected: "Encrypted message: unexpected error"
            }
        }
    }

    /// A message arrived that the service cannot read because of `error`; title only.
    public static func encryptedMessage(_ error: EncryptedMessageError) -> NotificationContent {
        NotificationContent(categoryIdentifier: .connectionEvent, title: error.title)
    }

    /// Something arrived, but the service found nothing to show (iOS, when the database opened fine).
    public static let encryptedMessageOrEvent = NotificationContent(
        categoryIdentifier: .connectionEvent, title: "Encrypted message or another event")

    /// A message arrived while the user has stopped chat, so nothing may receive it.
    public static let appStopped = NotificationContent(
        categoryIdentifier: .connectionEvent, title: "Encrypted message: app is stopped")

    /// A message arrived on a known connection but could not be read into a chat item (iOS
    /// `createConnectionEventNtf`), or nil when the chat is not notified. `chat` nil is a contact not yet
    /// known, which is not notified (iOS shows the fallback only for an existing contact); a
    /// `contactRequest` chat is the user's address receiving a request; `sender` is the member of a group
    /// the message came from. Notified only for chats whose setting is `all`.
    public static func connectionEvent(
        user: NotificationUser, chat: NotificationChat?, sender: NotificationName? = nil,
        previewMode: NotificationPreviewMode
    ) -> NotificationContent? {
        guard user.showNotifications else { return nil }
        guard let chat else { return nil }
        if case .contactRequest = chat.kind {
            return NotificationContent(
                categoryIdentifier: .connectionEvent, title: "New contact request", userId: user.userId)
        }
        guard chat.notifications == .all else { return nil }
        return NotificationContent(
            categoryIdentifier: .connectionEvent,
            title: messageTitle(chat: chat, sender: sender, hidden: previewMode == .hidden),
            body: "message received", targetChat: chat.chatId, userId: user.userId)
    }
}
