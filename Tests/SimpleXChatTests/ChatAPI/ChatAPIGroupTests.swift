import Foundation
import TestSupport
import Testing

@testable import SimpleXChat

/// The chat API's group commands by ids, on a real relay with alice the owner of #team and bob and
/// cath its members: the link, the profile, blocking for all and moderation, each answered as
/// SimpleX's core answers, and bad ids refused with nothing changed.
@Suite(.serialized)
struct ChatAPIGroupTests {
    func result(_ response: ChatResponse) throws -> JSON {
        guard response.chatError == nil, let result = response.json["result"] else {
            throw ModerationTestFailure("\(response.jsonText)")
        }
        return result
    }

    @Test func linkProfileBlockAndModerationByIds() async throws {
        let relay = try await RelayProcess()
        let team = try await ChatGroupTests.team(relay: relay)
        let (alice, bob, cath) = (team.alice.chat, team.bob.chat, team.cath.chat)
        let group = try await alice.group(named: "team")
        let id = group.groupId

        // The link: made, read, its role changed, deleted.
        let created = try result(await alice.execute("/_create link #\(id) member"))
        #expect(created["type"]?.stringValue == "groupLinkCreated")
        let link = try #require(created["groupLink"]?["connLinkContact"]?["connFullLink"]?.stringValue)
        #expect(link.hasPrefix("simplex:/contact"))
        #expect(created["groupInfo"]?["groupId"] == .number(JSONNumber(id)))
        let read = try result(await alice.execute("/_get link #\(id)"))
        #expect(read["type"]?.stringValue == "groupLink")
        #expect(read["groupLink"]?["connLinkContact"]?["connFullLink"]?.stringValue == link)
        let observer = try result(await alice.execute("/_set link role #\(id) observer"))
        #expect(observer["groupLink"]?["acceptMemberRole"]?.stringValue == "observer")
        #expect(try await alice.groupLink("team").memberRole == .observer)
        #expect(try result(await alice.execute("/_delete link #\(id)"))["type"]?.stringValue == "groupLinkDeleted")
        #expect(try await alice.existingGroupLink("team") == nil)
        #expect(await alice.execute("/_get link #\(id)").chatError != nil)

        // The profile: renamed by the owner, and the members see it; a member may not.
        let updated = try result(
            await alice.execute(#"/_group_profile #\#(id) {"displayName":"club","fullName":"The Club"}"#))
        #expect(updated["type"]?.stringValue == "groupUpdated")
        #expect(updated["fromGroup"]?["groupProfile"]?["displayName"]?.stringValue == "team")
        #expect(updated["toGroup"]?["groupProfile"]?["displayName"]?.stringValue == "club")
        #expect(await eventually { (try? await bob.groups().first?.profile.fullName) == "The Club" })
        let bobsId = try await bob.groups()[0].groupId
        #expect(await bob.execute(#"/_group_profile #\#(bobsId) {"displayName":"mine","fullName":""}"#).chatError != nil)
        #expect(try await alice.group(named: "club").profile.displayName == "club")

        // Blocking for all: a bad member id changes nothing; cath blocked, bob sees it.
        let members = try await alice.members(of: "club").1
        let cathAtAlice = try #require(members.first { $0.localDisplayName == "cath" })
        #expect(await alice.execute("/_block #\(id) \(cathAtAlice.groupMemberId),9999 blocked=on").chatError != nil)
        #expect(try await alice.members(of: "club").1.first { $0.localDisplayName == "cath" }?.blockedByAdmin == false)
        let blocked = try result(await alice.execute("/_block #\(id) \(cathAtAlice.groupMemberId) blocked=on"))
        #expect(blocked["type"]?.stringValue == "membersBlockedForAllUser")
        #expect(blocked["blocked"] == .bool(true))
        #expect(blocked["members"]?.arrayValue?.first?["localDisplayName"]?.stringValue == "cath")
        #expect(await eventually {
            (try? await bob.members(of: "club").1.first { $0.localDisplayName == "cath" }?.blockedByAdmin) == true
        })
        _ = try result(await alice.execute("/_block #\(id) \(cathAtAlice.groupMemberId) blocked=off"))

        // Moderation: bob's message deleted for everyone by alice; her own is refused.
        _ = try await bob.sendGroup("club", .text("bob says something"))
        let atAlice = try await ChatGroupTests.received(team.alice, "bob says something")
        let moderated = try result(await alice.execute("/_delete member item #\(id) \(atAlice.itemId)"))
        #expect(moderated["type"]?.stringValue == "chatItemsDeleted")
        #expect(moderated["byUser"] == .bool(true))
        #expect(moderated["chatItemDeletions"]?.arrayValue?.first?["deletedChatItem"]?["chatInfo"]?["type"]?.stringValue == "group")
        #expect(await eventually {
            (try? await cath.groupItems("club", count: 10).first { $0.text == "bob says something" }?.moderation) != nil
        })
        let own = try await alice.sendGroup("club", .text("alice's own"))
        let refused = await alice.execute("/_delete member item #\(id) \(own.itemId)")
        #expect(refused.chatError != nil)
        #expect(try await alice.groupItems("club", count: 10).last?.text == "alice's own")
        #expect(await alice.execute("/_delete member item #9999 1").chatError != nil)
        await ChatGroupModerationTests.stop(team)
    }
}
