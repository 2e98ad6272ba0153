import Foundation

/// What the chat core tells its user without being asked (SimpleX's `ChatEvent`s).
public enum ChatEvent: Equatable, Sendable {
    case contactConnected(ChatContact)
    case contactRequest(ChatContactRequest)
    case newItem(ChatContact, ChatItem)
    case itemUpdated(ChatContact, ChatItem)
    case itemDeleted(ChatContact, ChatItem)
    case itemReaction(ChatContact, ChatItem, emoji: String, add: Bool)
    case itemStatus(ChatContact, ChatItem)
    /// Disappearing items whose timer ended, now deleted.
    case itemsExpired(ChatContact, [ChatItem])
    case contactUpdated(ChatContact, from: ChatContact)
    /// The contact's profile came with other preferences (SimpleX `contactPrefsUpdated`): the
    /// user's own, and the contact's before and now.
    case contactPreferencesUpdated(
        ChatContact, user: ChatPreferences, from: ChatPreferences, to: ChatPreferences)
    case contactSwitchedDevice(ChatContact)
    /// The user read this chat's received items on this device (all of them, or those named by
    /// the API): its notifications can go.
    case chatRead(ChatContact)
    /// A file transfer moved on (started, progressed, finished, failed).
    case file(ChatFileEvent)
    case error(String)
}
