import Foundation
import SimpleXProtocol
import TestSupport
import Testing

@testable import SimpleXChat

/// The group's profile and preferences through `ChatController` on a real relay: only an owner's
/// `x.grp.info` / `x.grp.prefs` change them at a member, a member's forged ones are error items
/// that change nothing; what the preferences forbid (files, direct chats) is refused where it
/// arrives; the host's profile (`x.grp.link.mem`) is taken only from the host.
@Suite(.serialized)
struct ChatGroupProfileTests {
    static func refused(_ user: ChatControllerReadingTests.User) async throws -> GroupChatItem {
        try await user.events.next {
            if case .group(.newItem(_, let item)) = $0, item.isError { item } else { nil }
        }
    }

    @Test func onlyAnOwnerChangesTheProfileAndWhatThePreferencesForbidIsRefused() async throws {
        let relay = try await RelayProcess()
        let team = try await ChatGroupTests.team(relay: relay)
        let bobsMembers = try await team.bob.chat.members(of: "team").1
        let toCath = try #require(bobsMembers.first { $0.localDisplayName == "cath" }?.agentConnectionID)
        func forge(_ event: ChatMsgEvent) async throws {
            var generator = SystemRandomNumberGenerator()
            _ = try await team.bob.chat.agent.sendMessage(
                toCath,
                body: try ChatMessage(msgId: SharedMsgID.random(using: &generator), event: event).encoded())
        }
        // bob, a member, renames the group and turns files off: refused at cath, nothing changes.
        var renamed = try await team.cath.chat.group(named: "team").profile
        renamed.displayName = "bobs"
        try await forge(.group(.info(renamed)))
        #expect(try await Self.refused(team.cath).text == "x.grp.info from a member, not an owner")
        try await forge(.group(.prefs(GroupPreferences([.files: .init(enable: false)]))))
        #expect(try await Self.refused(team.cath).text == "x.grp.prefs from a member, not an owner")
        try await forge(.group(.linkMem(Profile(displayName: "mallory", fullName: ""))))
        #expect(try await Self.refused(team.cath).text == "x.grp.link.mem from a member who is not the host")
        let cathsGroup = try await team.cath.chat.group(named: "team")
        #expect(cathsGroup.profile.displayName == "team" && cathsGroup.preferences.isOn(.files))

        // alice, the owner, turns files and direct messages off: every member has it.
        _ = try await team.alice.chat.setGroupPreference("team", .files, on: false)
        _ = try await team.alice.chat.setGroupPreference("team", .directMessages, on: false)
        for member in [team.bob, team.cath] {
            let preferences = try await member.events.next {
                if case .group(.change(_, .profileUpdated(let by, _, let to))) = $0,
                    by.localDisplayName == "alice",
                    !to.preferences.isOn(.directMessages)
                {
                    to.preferences
                } else {
                    nil
                }
            }
            #expect(!preferences.isOn(.files))
            #expect(try await member.chat.group(named: "team").preferences.isOn(.files) == false)
        }
        // A file offered where files are off, and a direct chat where it is forbidden: refused.
        try await forge(
            .msgNew(MsgContainer(content: .file(""), file: FileInvitation(fileName: "a.txt", fileSize: 3))))
        #expect(try await Self.refused(team.cath).text == "a file, where files and media are prohibited")
        let invitation = try await team.bob.chat.createInvitation()
        try await forge(.group(.directInv(connReq: invitation, content: .text("hi"), scope: nil)))
        #expect(
            try await Self.refused(team.cath).text == "x.grp.direct.inv where direct messages are prohibited")
        await #expect(
            throws: ChatError.invalidCommand("#team: direct messages between members are prohibited")
        ) {
            _ = try await team.bob.chat.sendToMember("team", member: "cath", .text("hi"))
        }
        #expect(try await team.cath.chat.groupItems("team", count: 20).allSatisfy { $0.text != "hi" })
        // A member may not change the profile from here either.
        await #expect(
            throws: ChatError.invalidCommand(
                "#team: you have insufficient permissions for this action, the required role is owner")
        ) {
            _ = try await team.bob.chat.updateGroupProfile("team") { $0.description = "bob's welcome" }
        }
        for user in [team.alice, team.bob, team.cath] { await user.chat.stop() }
    }

    /// One link per group, with the role it gives; an admin's only; gone when deleted, and its
    /// client data says it is a group's.
    @Test func aGroupHasOneLinkWhoseRoleTheAdminSets() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("chat-group-link")
        let alice = try await ChatControllerReadingTests.user("alice", relay: relay, in: directory)
        _ = try await alice.chat.createGroup(GroupProfile(displayName: "team", fullName: ""))
        await #expect(
            throws: ChatError.invalidCommand("a group link can make members observer or member, not admin")
        ) { _ = try await alice.chat.createGroupLink("team", role: .admin) }
        let link = try await alice.chat.createGroupLink("team")
        #expect(link.memberRole == .member)
        let parsed = try ConnectionLink(link.link)
        #expect(ChatController.groupLinkId(in: parsed) == link.linkId)
        await #expect(
            throws: ChatError.invalidCommand(
                "you already have link for this group, to show: /show link #team")
        ) { _ = try await alice.chat.createGroupLink("team") }
        #expect(try await alice.chat.setGroupLinkRole("team", .observer).memberRole == .observer)
        #expect(try await alice.chat.groupLink("team").link == link.link)
        // The user's own contact address is not the group's link, nor the other way round.
        let address = try await alice.chat.createAddress()
        #expect(address != link.link)
        #expect(ChatController.groupLinkId(in: try ConnectionLink(address)) == nil)
        try await alice.chat.deleteGroupLink("team")
        await #expect(throws: ChatError.invalidCommand("no group link, to create: /create link #team")) {
            _ = try await alice.chat.groupLink("team")
        }
        #expect(try await alice.chat.existingAddress() == address)
        await alice.chat.stop()
    }
}
