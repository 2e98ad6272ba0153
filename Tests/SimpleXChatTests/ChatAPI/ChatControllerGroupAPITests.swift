import Foundation
import Testing
import TestSupport

@testable import SimpleXChat

/// Groups in the chat API, offline on a real database: the chat list has them beside the contacts
/// (most recent first), `/_get chat #id` pages a group, and `/_settings #id` mutes one.
@Suite struct ChatControllerGroupAPITests {
    @Test func theChatListAndPagesHaveGroupsAndSettingsMuteThem() async throws {
        let f = try await ChatControllerAPITests.Fixture()
        let team = try f.store.createGroup(f.user, profile: GroupProfile(displayName: "team"), memberId: MemberID(bytes: [7]))
        for (offset, text) in ["team one", "team two", "team three"].enumerated() {
            _ = try f.store.insertGroupItem(
                f.user, groupId: team.groupId, member: nil, content: .text(text), sharedMsgId: nil,
                at: Date().addingTimeInterval(60 + Double(offset)))
        }
        guard case .apiChats(_, let chats) = try await f.run("/_get chats 1") else {
            throw TestSupportError("no apiChats")
        }
        // The group's last item is the newest: it leads; carol, with no items, stays last.
        #expect(chats.map(\.chatInfo) == [.group(groupInfo: team), .direct(contact: f.bob), .direct(contact: f.carol)])
        #expect(chats[0].groupItems.map(\.text) == ["team three"])
        let listJSON = try await f.run("/_get chats 1").json.compactText
        #expect(listJSON.contains(#""type":"group""#) && listJSON.contains(#""itemText":"team three""#))

        guard case .apiChat(_, let page) = try await f.run("/_get chat #\(team.groupId) count=2") else {
            throw TestSupportError("no apiChat")
        }
        #expect(page.chatInfo == .group(groupInfo: team))
        #expect(page.groupItems.map(\.text) == ["team two", "team three"])
        #expect(
            try await f.run("/_get chat #\(team.groupId) before=1 count=2").chatError
                == .commandError("#\(team.groupId): a group's page is its last items (count=N) in this build"))

        #expect(try await f.run(#"/_settings #\#(team.groupId) {"enableNtfs":"none","favorite":false}"#) == .cmdOk(user: f.user))
        #expect(try f.store.group(id: team.groupId).enableNtfs == .none)
        #expect(try await f.run("/unmute #team") == .cmdOk(user: f.user))
        #expect(try f.store.group(id: team.groupId).enableNtfs == .all)
        #expect(try await f.run("/mute #nope").chatError == .commandError("no group #nope"))
        await f.close()
    }
}
