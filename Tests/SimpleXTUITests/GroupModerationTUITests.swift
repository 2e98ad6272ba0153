import Foundation
import Testing

@testable import SimpleXChat
@testable import SimpleXTUI

/// Moderation in the full-screen client: the moderate action on a member's message only where the
/// user's role allows it, blocking a member for all from group info, and a moderator's reports.
struct GroupModerationTUITests {
    let fixtures = GroupChatTests()

    func team(role: GroupMemberRole) -> ChatGroup {
        var group = fixtures.team()
        group.membership.role = role
        return group
    }

    func open(_ app: inout AppModel, _ group: ChatGroup, _ items: [GroupChatItem]) {
        _ = app.update(.chatList(ChatListEntry.merging([(group, nil, 0)], into: app.chatList.entries)))
        app.chatList.selectedID = "#7"
        _ = app.update(.key(.key(.enter, [])))
        _ = app.update(.groupOpened(group, items))
    }

    func shared(_ item: GroupChatItem) -> GroupChatItem {
        GroupChatItem(
            itemId: item.itemId, groupId: 7, member: item.member, content: item.content,
            timestamp: item.timestamp,
            sharedMsgId: SharedMsgID(bytes: [UInt8(item.itemId)]), forwarded: false)
    }

    @Test func aModeratorIsOfferedModerateOnAMembersMessageAndAMemberIsNot() {
        let spam = shared(fixtures.item(1, fixtures.member(2, "bob"), "buy pills"))
        var app = AppFixture.app()
        open(&app, team(role: .moderator), [spam])
        _ = app.update(.key(.key(.up, [])))
        #expect(AppView().draw(&app).lines.contains { $0.text.contains("D moderate · c copy · i info") })
        _ = app.update(.key(.character("D")))
        guard case .confirm(let question, _) = app.overlays.last else { return #expect(Bool(false)) }
        #expect(question == "Moderate: delete bob's message for every member of #team? y / n")
        #expect(app.update(.key(.character("y"))) == [.moderateGroupItem(groupId: 7, item: spam)])

        var member = AppFixture.app()
        open(&member, team(role: .member), [spam])
        _ = member.update(.key(.key(.up, [])))
        #expect(!AppView().draw(&member).lines.contains { $0.text.contains("moderate") })
        #expect(member.update(.key(.character("D"))) == [])
        #expect(member.overlays.isEmpty)
        // Nor a moderator on an admin's message.
        var below = AppFixture.app()
        let admins = shared(fixtures.item(1, fixtures.member(2, "bob", role: .admin), "rules"))
        open(&below, team(role: .moderator), [admins])
        _ = below.update(.key(.key(.up, [])))
        #expect(below.update(.key(.character("D"))) == [] && below.overlays.isEmpty)
    }

    @Test func moderatedAndBlockedItemsShowWhoHidThem() {
        var marked = shared(fixtures.item(1, fixtures.member(2, "bob"), "buy pills"))
        marked.moderation = .marked(by: fixtures.member(3, "carol"))
        #expect(ChatViewItem(group: marked, userName: "me").deletion == .moderated(by: "carol"))
        marked.moderation = .removed(by: nil)
        #expect(ChatViewItem(group: marked, userName: "me").deletion == .moderated(by: "you"))
        marked.moderation = .blocked
        #expect(ChatViewItem(group: marked, userName: "me").deletion == .blockedByAdmin)
        var app = AppFixture.app()
        open(&app, team(role: .member), [marked])
        let text = AppView().draw(&app).lines.map(\.text)
        #expect(text.contains { $0.contains("blocked by admin") })
        #expect(!text.contains { $0.contains("buy pills") })
    }

    @Test func groupInfoBlocksTheChosenMemberForAllAndOpensTheReports() {
        var app = AppFixture.app()
        let group = team(role: .admin)
        open(&app, group, [])
        _ = app.update(.key(.alt("i")))
        _ = app.update(.groupMembers(group, [fixtures.member(2, "bob"), fixtures.member(3, "carol")]))
        #expect(AppView().draw(&app).lines.contains { $0.text.contains("b  Block bob for all") })
        _ = app.update(.key(.key(.down, [])))
        #expect(AppView().draw(&app).lines.contains { $0.text.contains("b  Block carol for all") })
        _ = app.update(.key(.character("b")))
        #expect(
            app.update(.key(.character("y"))) == [
                .blockMember(groupId: 7, memberName: "carol", blocked: true)
            ])
        var blocked = fixtures.member(3, "carol")
        blocked.blockedByAdmin = true
        _ = app.update(.groupMembers(group, [fixtures.member(2, "bob"), blocked]))
        let text = AppView().draw(&app).lines.map(\.text)
        #expect(text.contains { $0.contains("carol · member · connected · blocked by admin") })
        #expect(text.contains { $0.contains("b  Unblock carol for all") })
        // Reports: a moderator's view of who reported whose message, and why.
        #expect(app.update(.key(.character("r"))) == [.loadGroupReports(groupId: 7)])
        var report = fixtures.item(9, fixtures.member(2, "bob"), "")
        report = GroupChatItem(
            itemId: 9, groupId: 7, member: report.member, content: .report(text: "", reason: .spam),
            timestamp: report.timestamp, sharedMsgId: nil, forwarded: false,
            quote: GroupItemQuote(
                sharedMsgId: nil, member: blocked, memberId: blocked.memberId, content: .text("buy pills")))
        _ = app.update(.groupReports(group, [report]))
        guard case .info(let title, let lines, _) = app.overlays.last else { return #expect(Bool(false)) }
        #expect(title == "Reports in #team")
        #expect(
            lines.contains { $0.hasSuffix("bob reported carol: spam") } && lines.contains("  > buy pills"))
    }

    @Test func aMemberHasNoBlockingNorReportsInGroupInfo() {
        var app = AppFixture.app()
        let group = team(role: .member)
        open(&app, group, [])
        _ = app.update(.key(.alt("i")))
        _ = app.update(.groupMembers(group, [fixtures.member(2, "bob")]))
        let text = AppView().draw(&app).lines.map(\.text)
        #expect(!text.contains { $0.contains("Block") || $0.contains("Reports") })
        #expect(app.update(.key(.character("b"))) == [] && app.update(.key(.character("r"))) == [])
    }

    /// A member reports another's message: `!`, the reason, a comment, and the report effect; a
    /// report for another reason must say why; a moderator moderates instead of reporting.
    @Test func aMemberReportsAMessageWithAReasonAndAComment() {
        let spam = shared(fixtures.item(1, fixtures.member(2, "bob"), "buy pills"))
        var app = AppFixture.app()
        open(&app, team(role: .member), [spam])
        _ = app.update(.key(.key(.up, [])))
        #expect(AppView().draw(&app).lines.contains { $0.text.contains("! report · c copy · i info") })
        _ = app.update(.key(.character("!")))
        var text = AppView().draw(&app).lines.map(\.text)
        #expect(text.contains { $0.contains("Report bob's message to the moderators") })
        #expect(text.contains { $0.contains("1  Spam") } && text.contains { $0.contains("5  Another reason") })
        _ = app.update(.key(.key(.down, [])))
        _ = app.update(.key(.key(.enter, [])))
        text = AppView().draw(&app).lines.map(\.text)
        #expect(text.contains { $0.contains("Report: Inappropriate content") })
        for character in "pills ad" { _ = app.update(.key(.character(character))) }
        #expect(
            app.update(.key(.key(.enter, []))) == [
                .reportGroupItem(groupId: 7, item: spam, reason: .content, text: "pills ad")
            ])
        #expect(app.overlays.isEmpty)

        // "Another reason" with no comment is refused, and the prompt stays.
        _ = app.update(.key(.key(.up, [])))
        _ = app.update(.key(.character("!")))
        _ = app.update(.key(.character("5")))
        #expect(app.update(.key(.key(.enter, []))) == [])
        #expect(AppView().draw(&app).lines.contains { $0.text.contains("a report for another reason says why") })

        // Where the group forbids reports, or for a moderator, there is no report.
        var moderator = AppFixture.app()
        open(&moderator, team(role: .moderator), [spam])
        _ = moderator.update(.key(.key(.up, [])))
        _ = moderator.update(.key(.character("!")))
        #expect(moderator.overlays.isEmpty)
        var closed = team(role: .member)
        closed.profile.preferences.preferences[.reports] = .init(enable: false)
        var forbidden = AppFixture.app()
        open(&forbidden, closed, [spam])
        _ = forbidden.update(.key(.key(.up, [])))
        _ = forbidden.update(.key(.character("!")))
        #expect(forbidden.overlays.isEmpty)
    }
}
