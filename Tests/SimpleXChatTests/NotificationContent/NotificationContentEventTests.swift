import Testing

@testable import SimpleXChat

/// Contact requests, connected contacts, calls, and the notifications for what could not be read.
@Suite struct NotificationContentEventTests {
    typealias F = NotificationFixtures

    static let carol = NotificationChat.contactRequest(
        NotificationName("carol", fullName: "Carol C"), contactRequestId: 3)

    @Test func contactRequestInEveryMode() throws {
        for mode in [NotificationPreviewMode.message, .contact] {
            let content = try #require(F.make(Self.carol, .contactRequest, mode))
            #expect(content.categoryIdentifier == .contactRequest)
            #expect(content.title == "carol wants to connect!")
            #expect(content.body == "Accept contact request from carol / Carol C?")
            #expect(content.targetChat == "<@3")
            #expect(content.userId == 1)
            #expect(content.actions == [.acceptContact, .acceptContactIncognito, .rejectContact])
        }
        let hidden = try #require(F.make(Self.carol, .contactRequest, .hidden))
        #expect(hidden.title == "Somebody wants to connect!")
        #expect(hidden.body == "Accept contact request from this contact?")
        #expect(hidden.targetChat == "<@3")
        #expect(hidden.actions == [.acceptContact, .acceptContactIncognito, .rejectContact])
    }

    @Test func contactConnectedInEveryMode() throws {
        let dave = NotificationChat.direct(NotificationName("dave", localAlias: "Uncle D"), contactId: 7)
        for mode in [NotificationPreviewMode.message, .contact] {
            let content = try #require(F.make(dave, .contactConnected, mode))
            #expect(content.categoryIdentifier == .contactConnected)
            // The local alias, as iOS's `Contact.displayName`.
            #expect(content.title == "Uncle D is connected!")
            #expect(content.body == "You can now chat with Uncle D")
            #expect(content.targetChat == "@7")
            #expect(content.actions.isEmpty)
        }
        let hidden = try #require(F.make(dave, .contactConnected, .hidden))
        #expect(hidden.title == "A new contact is connected!")
        #expect(hidden.body == "You can now chat with this contact")
        #expect(hidden.targetChat == "@7")
    }

    @Test(arguments: NotificationItem.CallMedia.allCases) func callInEveryMode(
        _ media: NotificationItem.CallMedia
    ) throws {
        let body = media == .video ? "Incoming video call" : "Incoming audio call"
        for mode in [NotificationPreviewMode.message, .contact] {
            let content = try #require(F.make(F.alice, .callInvitation(media), mode))
            #expect(content.categoryIdentifier == .callInvitation)
            #expect(content.title == "alice:")
            #expect(content.body == body)
            #expect(content.targetChat == "@12")
            #expect(content.actions == [.acceptCall, .rejectCall])
        }
        let hidden = try #require(F.make(F.alice, .callInvitation(media), .hidden))
        #expect(hidden.title == "Contact hidden:")
        #expect(hidden.body == body)
    }

    @Test func actionsHaveIOSIdentifiersAndLabels() {
        #expect(NotificationContent.Action.acceptContact.rawValue == "NTF_ACT_ACCEPT_CONTACT")
        #expect(NotificationContent.Action.acceptContact.label == "Accept")
        #expect(NotificationContent.Action.acceptContactIncognito.label == "Accept incognito")
        #expect(NotificationContent.Action.rejectContact.label == "Reject")
        #expect(NotificationContent.Action.rejectCall.rawValue == "NTF_ACT_REJECT_CALL")
        #expect(NotificationContent.Category.messageReceived.rawValue == "NTF_CAT_MESSAGE_RECEIVED")
        #expect(NotificationContent.Category.messageReceived.desktopCategory == "im.received")
        #expect(NotificationContent.Category.callInvitation.desktopCategory == "call.incoming")
    }

    @Test func encryptedMessageErrorsHaveATitleOnly() {
        let titles: [NotificationContent.EncryptedMessageError: String] = [
            .noPassphrase: "Encrypted message: no passphrase",
            .databaseMigration: "Encrypted message: database migration error",
            .database: "Encrypted message: database error",
            .keychain: "Encrypted message: keychain error",
            .unexpected: "Encrypted message: unexpected error",
        ]
        #expect(titles.count == NotificationContent.EncryptedMessageError.allCases.count)
        for (error, title) in titles {
            let content = NotificationContent.encryptedMessage(error)
            #expect(content.categoryIdentifier == .connectionEvent)
            #expect(content.title == title)
            #expect(content.body == "")
            #expect(content.targetChat == nil)
            #expect(content.actions.isEmpty)
        }
        #expect(NotificationContent.appStopped.title == "Encrypted message: app is stopped")
        #expect(NotificationContent.encryptedMessageOrEvent.title == "Encrypted message or another event")
        #expect(NotificationContent.appStopped.body == "")
    }

    @Test func aMessageThatCouldNotBeReadNamesItsChatAsThePreviewModeAllows() throws {
        let user = F.user
        let direct = try #require(
            NotificationContent.connectionEvent(user: user, chat: F.alice, previewMode: .contact))
        #expect(direct.categoryIdentifier == .connectionEvent)
        #expect(direct.title == "alice:")
        #expect(direct.body == "message received")
        #expect(direct.targetChat == "@12")
        #expect(
            NotificationContent.connectionEvent(user: user, chat: F.alice, previewMode: .hidden)?.title
                == "Contact hidden:")

        let group = try #require(
            NotificationContent.connectionEvent(
                user: user, chat: F.team, sender: F.bob, previewMode: .message))
        #expect(group.title == "#team bob:")
        #expect(group.body == "message received")
        #expect(
            NotificationContent.connectionEvent(
                user: user, chat: F.team, sender: F.bob, previewMode: .hidden)?.title
                == "Group message:")

        // A connection with no contact yet is not notified: iOS shows the fallback only for an
        // existing contact.
        #expect(NotificationContent.connectionEvent(user: user, chat: nil, previewMode: .message) == nil)

        let address = try #require(
            NotificationContent.connectionEvent(user: user, chat: Self.carol, previewMode: .message))
        #expect(address.title == "New contact request")
        #expect(address.body == "")

        let mentionsOnly = NotificationChat.group(
            NotificationName("team"), groupId: 5, notifications: .mentions)
        #expect(
            NotificationContent.connectionEvent(user: user, chat: mentionsOnly, previewMode: .message) == nil)
    }
}
