import Testing

@testable import SimpleXChat

/// Commands in SimpleX's syntax: every case written as its cmdString and read back, the exact
/// strings SimpleX's apps send, and the other forms SimpleX's parser accepts.
@Suite struct ChatCommandTests {
    static let hello = ComposedMessage(msgContent: .text("hello"))

    /// Every case, each pagination, mode and optional part at least once.
    static let everyCommand: [ChatCommand] = [
        .showActiveUser,
        .createActiveUser(displayName: "alice"),
        .createActiveUser(displayName: "Alice Smith"),
        .startChat(mainApp: true, enableSndFiles: true),
        .startChat(mainApp: false, enableSndFiles: false),
        .apiGetChats(userId: 1, pendingConnections: true),
        .apiGetChats(userId: 2, pendingConnections: false),
        .apiGetChat(.direct(1), pagination: .last(count: 50), search: nil),
        .apiGetChat(.direct(1), pagination: .before(id: 10, count: 20), search: nil),
        .apiGetChat(.direct(1), pagination: .after(id: 10, count: 20), search: nil),
        .apiGetChat(.direct(1), pagination: .around(id: 10, count: 5), search: nil),
        .apiGetChat(.direct(1), pagination: .initial(count: 30), search: nil),
        .apiGetChat(.direct(3), pagination: .last(count: 10), search: "two words"),
        .apiGetChat(.direct(2), content: .images, pagination: .last(count: 20), search: nil),
        .apiGetChat(.direct(2), content: .links, pagination: .before(id: 9, count: 5), search: "docs"),
        .apiGetChat(ChatRef(.group, 4), pagination: .last(count: 10), search: ""),
        .apiGetChatItemInfo(.direct(1), itemId: 7),
        .apiSendMessages(.direct(1), live: false, ttl: nil, composedMessages: [hello]),
        .apiSendMessages(
            .direct(2), live: true, ttl: 86400,
            composedMessages: [
                ComposedMessage(quotedItemId: 5, msgContent: .text("a reply")),
                ComposedMessage(
                    msgContent: .unknown(
                        type: "future", text: "?", json: ["type": "future", "text": "?", "x": [1, 2]])),
            ]),
        .apiUpdateChatItem(
            .direct(1), itemId: 9, live: false, updatedMessage: UpdatedMessage(msgContent: .text("edited"))),
        .apiDeleteChatItem(.direct(1), itemIds: [9], mode: .broadcast),
        .apiDeleteChatItem(.direct(1), itemIds: [1, 2, 3], mode: .internal),
        .apiDeleteChatItem(.direct(1), itemIds: [4], mode: .internalMark),
        .apiChatItemReaction(.direct(1), itemId: 9, add: true, reaction: .emoji(.thumbsUp)),
        .apiChatItemReaction(.direct(1), itemId: 9, add: false, reaction: .emoji(.heart)),
        .apiForwardChatItems(to: .direct(2), from: .direct(1), itemIds: [3, 4], ttl: nil),
        .apiForwardChatItems(to: .direct(2), from: .direct(1), itemIds: [3], ttl: 60),
        .apiChatRead(.direct(1)),
        .apiClearChat(.direct(3)),
        .apiChatItemsRead(.direct(1), itemIds: [5, 6]),
        .apiChatUnread(.direct(1), unread: true),
        .apiChatUnread(.direct(1), unread: false),
        .apiAddContact(userId: 1, incognito: false),
        .apiConnect(userId: 1, incognito: false, link: "simplex:/invitation#/?v=2-7&smp=smp%3A%2F%2Fa%40b"),
        .apiAcceptContact(incognito: false, contactReqId: 3),
        .apiRejectContact(contactReqId: 3),
        .apiCreateGroupLink(groupId: 1, memberRole: .member),
        .apiCreateGroupLink(groupId: 2, memberRole: .observer),
        .apiGroupLinkMemberRole(groupId: 1, memberRole: .observer),
        .apiDeleteGroupLink(groupId: 1),
        .apiGetGroupLink(groupId: 1),
        .apiUpdateGroupProfile(groupId: 1, groupProfile: GroupProfile(displayName: "club", fullName: "The Club")),
        .apiBlockMembersForAll(groupId: 1, memberIds: [3], blocked: true),
        .apiBlockMembersForAll(groupId: 1, memberIds: [3, 4], blocked: false),
        .apiDeleteMemberChatItem(groupId: 1, itemIds: [9, 10]),
        .apiCreateMyAddress(userId: 1),
        .apiShowMyAddress(userId: 1),
        .apiDeleteMyAddress(userId: 1),
        .apiDeleteChat(.direct(1), mode: .full(notify: true)),
        .apiDeleteChat(.direct(1), mode: .full(notify: false)),
        .apiDeleteChat(.direct(1), mode: .entity(notify: true)),
        .apiDeleteChat(.direct(1), mode: .messages),
        .apiListContacts(userId: 1),
        .apiSetContactAlias(contactId: 2, localAlias: "Bobby B"),
        .apiSetContactAlias(contactId: 2, localAlias: ""),
        .apiUpdateProfile(userId: 1, profile: Profile(displayName: "alice", fullName: "Alice A")),
        .apiParseMarkdown(text: "*bold* and _italic_"),
        .apiParseMarkdown(text: "markdown first"),
        .apiParseMarkdown(text: ""),
        .getUserProtoServers,
        .setUserProtoServers(["smp://abc@localhost:5223", "smp://def@example.com"]),
        .apiSetUserContactReceipts(userId: 1, enable: false, clearOverrides: true),
        .apiSetUserContactReceipts(userId: 1, enable: true, clearOverrides: false),
        .setUserContactReceipts(enable: false, clearOverrides: false),
        .setAllContactReceipts(enable: true),
        .setAllContactReceipts(enable: false),
        .setSendReceipts(contactName: "bob", enable: false),
        .setSendReceipts(contactName: "Bob B", enable: true),
        .setSendReceipts(contactName: "bob", enable: nil),
        .setUserFeature(.voice, .no),
        .setUserFeature(.fullDelete, .always),
        .setUserTimedMessages(true),
        .apiSetChatSettings(.direct(1), ChatSettings(enableNtfs: .none, sendRcpts: nil, favorite: false)),
        .apiSetChatSettings(.direct(2), ChatSettings(enableNtfs: .mentions, sendRcpts: true, favorite: true)),
        .setShowMessages(contactName: "bob", enableNtfs: .none),
        .setShowMessages(contactName: "Bob B", enableNtfs: .all),
        .setGroupShowMessages(groupName: "team", enableNtfs: .none),
        .setGroupShowMessages(groupName: "big team", enableNtfs: .all),
        .setGroupShowMessages(groupName: "team", enableNtfs: .mentions),
        .apiSetChatSettings(ChatRef(.group, 3), ChatSettings(enableNtfs: .mentions, sendRcpts: nil, favorite: false)),
    ]

    @Test(arguments: everyCommand) func cmdStringReadsBack(_ command: ChatCommand) throws {
        #expect(try ChatCommand.parse(command.cmdString) == command)
    }

    @Test func cmdStringsAreSimpleXs() {
        let expected: [(ChatCommand, String)] = [
            (.showActiveUser, "/u"),
            (.startChat(mainApp: true, enableSndFiles: true), "/_start main=on snd_files=on"),
            (.apiGetChats(userId: 1, pendingConnections: true), "/_get chats 1 pcc=on"),
            (.apiGetChat(.direct(1), pagination: .last(count: 50), search: nil), "/_get chat @1 count=50"),
            (
                .apiGetChat(.direct(1), pagination: .before(id: 10, count: 20), search: "hi"),
                "/_get chat @1 before=10 count=20 search=hi"
            ),
            (
                .apiGetChat(.direct(1), content: .images, pagination: .last(count: 20), search: nil),
                "/_get chat @1 content=image count=20"
            ),
            (.apiGetChatItemInfo(.direct(1), itemId: 7), "/_get item info @1 7"),
            (
                .apiSendMessages(
                    .direct(1), live: false, ttl: nil,
                    composedMessages: [ComposedMessage(quotedItemId: 4, msgContent: .text("hi"))]),
                #"/_send @1 live=off ttl=default json [{"quotedItemId":4,"msgContent":{"text":"hi","type":"text"},"mentions":{}}]"#
            ),
            (
                .apiUpdateChatItem(
                    .direct(1), itemId: 9, live: false, updatedMessage: UpdatedMessage(msgContent: .text("x"))
                ),
                #"/_update item @1 9 live=off json {"msgContent":{"text":"x","type":"text"},"mentions":{}}"#
            ),
            (
                .apiDeleteChatItem(.direct(1), itemIds: [1, 2], mode: .broadcast),
                "/_delete item @1 1,2 broadcast"
            ),
            (
                .apiChatItemReaction(.direct(1), itemId: 9, add: true, reaction: .emoji(.thumbsUp)),
                #"/_reaction @1 9 on {"type":"emoji","emoji":"👍"}"#
            ),
            (
                .apiForwardChatItems(to: .direct(2), from: .direct(1), itemIds: [3], ttl: nil),
                "/_forward @2 @1 3 ttl=default"
            ),
            (.apiChatRead(.direct(1)), "/_read chat @1"),
            (.apiChatItemsRead(.direct(1), itemIds: [5, 6]), "/_read chat items @1 5,6"),
            (.apiChatUnread(.direct(1), unread: true), "/_unread chat @1 on"),
            (.apiAddContact(userId: 1, incognito: false), "/_connect 1 incognito=off"),
            (
                .apiConnect(userId: 1, incognito: false, link: "simplex:/x"),
                "/_connect 1 incognito=off simplex:/x"
            ),
            (.apiAcceptContact(incognito: false, contactReqId: 3), "/_accept incognito=off 3"),
            (.apiRejectContact(contactReqId: 3), "/_reject 3"),
            (.apiCreateMyAddress(userId: 1), "/_address 1"),
            (.apiShowMyAddress(userId: 1), "/_show_address 1"),
            (.apiDeleteMyAddress(userId: 1), "/_delete_address 1"),
            (.apiCreateGroupLink(groupId: 1, memberRole: .member), "/_create link #1 member"),
            (.apiGroupLinkMemberRole(groupId: 1, memberRole: .observer), "/_set link role #1 observer"),
            (.apiDeleteGroupLink(groupId: 1), "/_delete link #1"),
            (.apiGetGroupLink(groupId: 1), "/_get link #1"),
            (.apiBlockMembersForAll(groupId: 1, memberIds: [3, 4], blocked: true), "/_block #1 3,4 blocked=on"),
            (.apiDeleteMemberChatItem(groupId: 1, itemIds: [9]), "/_delete member item #1 9"),
            (.apiDeleteChat(.direct(1), mode: .full(notify: true)), "/_delete @1 full notify=on"),
            (.apiSetContactAlias(contactId: 2, localAlias: "Bob"), "/_set alias @2 Bob"),
            (
                .apiUpdateProfile(userId: 1, profile: Profile(displayName: "alice", fullName: "")),
                #"/_profile 1 {"displayName":"alice","fullName":""}"#
            ),
            (.apiParseMarkdown(text: "*bold*"), "/_parse markdown *bold*"),
            (.setUserProtoServers(["smp://a@b"]), "/smp smp://a@b"),
            (
                .apiSetUserContactReceipts(userId: 1, enable: true, clearOverrides: false),
                "/_set receipts contacts 1 on clear_overrides=off"
            ),
            (.setAllContactReceipts(enable: false), "/set receipts all off"),
            (.setSendReceipts(contactName: "bob", enable: nil), "/receipts @bob default"),
            (.setSendReceipts(contactName: "Bob B", enable: true), "/receipts @'Bob B' on"),
            (
                .apiSetChatSettings(.direct(1), ChatSettings(enableNtfs: .none)),
                #"/_settings @1 {"enableNtfs":"none","favorite":false}"#
            ),
            (.setShowMessages(contactName: "bob", enableNtfs: .none), "/mute @bob"),
            (.setShowMessages(contactName: "Bob B", enableNtfs: .all), "/unmute @'Bob B'"),
            (.setGroupShowMessages(groupName: "team", enableNtfs: .none), "/mute #team"),
            (.setGroupShowMessages(groupName: "big team", enableNtfs: .all), "/unmute #'big team'"),
            (.setGroupShowMessages(groupName: "team", enableNtfs: .mentions), "/unmute mentions #team"),
            (.setUserFeature(.voice, .no), "/set voice no"),
            (.setUserFeature(.fullDelete, .always), "/set delete always"),
            (.setUserFeature(.reactions, .yes), "/set reactions yes"),
            (.setUserFeature(.calls, .no), "/set calls no"),
            (.setUserTimedMessages(false), "/set disappear no"),
        ]
        for (command, text) in expected { #expect(command.cmdString == text) }
    }

    /// Forms SimpleX's parser accepts besides the apps' own.
    @Test func simplexsOtherFormsAreRead() throws {
        let forms: [(String, ChatCommand)] = [
            ("/user", .showActiveUser),
            ("/u  ", .showActiveUser),
            ("/_start", .startChat(mainApp: true, enableSndFiles: true)),
            ("/_start main=off", .startChat(mainApp: false, enableSndFiles: false)),
            ("/_get chats 1", .apiGetChats(userId: 1, pendingConnections: false)),
            ("/_get chats 1 pcc=off", .apiGetChats(userId: 1, pendingConnections: false)),
            (
                "/_send @1 json [{\"msgContent\":{\"type\":\"text\",\"text\":\"hello\"}}]",
                .apiSendMessages(.direct(1), live: false, ttl: nil, composedMessages: [Self.hello])
            ),
            (
                "/_send @1 ttl=30 json [{\"msgContent\":{\"type\":\"text\",\"text\":\"hello\"}}]",
                .apiSendMessages(.direct(1), live: false, ttl: 30, composedMessages: [Self.hello])
            ),
            (
                "/_update item @1 2 json {\"msgContent\":{\"type\":\"text\",\"text\":\"hello\"}}",
                .apiUpdateChatItem(
                    .direct(1), itemId: 2, live: false,
                    updatedMessage: UpdatedMessage(msgContent: .text("hello")))
            ),
            (
                "/_forward @2 @1 3",
                .apiForwardChatItems(to: .direct(2), from: .direct(1), itemIds: [3], ttl: nil)
            ),
            ("/_delete @1", .apiDeleteChat(.direct(1), mode: .full(notify: true))),
            ("/_delete @1 full", .apiDeleteChat(.direct(1), mode: .full(notify: true))),
            ("/_delete @1 notify=off", .apiDeleteChat(.direct(1), mode: .full(notify: false))),
            ("/_accept 5", .apiAcceptContact(incognito: false, contactReqId: 5)),
            ("/_connect 1", .apiAddContact(userId: 1, incognito: false)),
            ("/_set alias @2", .apiSetContactAlias(contactId: 2, localAlias: "")),
            ("/_parse *hi*", .apiParseMarkdown(text: "*hi*")),
            ("/create user 'Alice Smith'", .createActiveUser(displayName: "Alice Smith")),
            ("/smp", .getUserProtoServers),
            (
                "/_set receipts contacts 1 off",
                .apiSetUserContactReceipts(userId: 1, enable: false, clearOverrides: false)
            ),
            ("/set receipts contacts on", .setUserContactReceipts(enable: true, clearOverrides: false)),
            (
                #"/_settings @3 {"enableNtfs":"all","sendRcpts":null,"favorite":true}"#,
                .apiSetChatSettings(.direct(3), ChatSettings(enableNtfs: .all, sendRcpts: nil, favorite: true))
            ),
            (#"/_settings @3 {"enableNtfs":"mentions"}"#, .apiSetChatSettings(.direct(3), ChatSettings(enableNtfs: .mentions))),
        ]
        for (text, command) in forms { #expect(try ChatCommand.parse(text) == command, "\(text)") }
    }

    @Test func commandsThatTalkToRelaysSaySo() {
        #expect(
            Self.everyCommand.filter(\.usesNetwork).map(\.cmdString).map { $0.prefix { $0 != " " } } == [
                "/_send", "/_send", "/_update", "/_delete", "/_reaction", "/_reaction", "/_forward",
                "/_forward", "/_connect",
                "/_connect", "/_accept", "/_create", "/_create", "/_delete", "/_group_profile", "/_block", "/_block",
                "/_delete", "/_address", "/_delete_address", "/_delete", "/_delete", "/_delete",
                "/_delete", "/_profile", "/set", "/set", "/set",
            ])
    }
}
