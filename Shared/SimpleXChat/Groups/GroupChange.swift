/// What changed in a group beside members joining and leaving: requests through the group link,
/// the profile and preferences, direct chats between members (`GroupChatEvent.change`).
public enum GroupChange: Equatable, Sendable {
    /// (Host) a request came through the group link; the member is being connected.
    case acceptingLinkRequest(GroupMember)
    /// (Joiner) the host answered the request through its link: the user is joining.
    case joiningByLink
    /// (Joiner) the host refused the request (`x.grp.link.reject`), for `reason`.
    case linkRejected(reason: String)
    /// The owner `by` changed the group's profile or preferences (`x.grp.info`, `x.grp.prefs`).
    case profileUpdated(by: GroupMember, from: GroupProfile, to: GroupProfile)
    /// `member` invited the user to a direct chat (`x.grp.direct.inv`): `contact` is made.
    case memberContact(GroupMember, contact: ChatContact)
}

extension GroupChange {
    /// The event's type in the chat API's JSON: SimpleX's name where it has one for the event
    /// (`acceptingGroupJoinRequestMember`, `groupUpdated`, `newMemberContactReceivedInv`).
    var eventType: String {
        switch self {
        case .acceptingLinkRequest: "acceptingGroupJoinRequestMember"
        case .joiningByLink: "userJoinedGroupLink"
        case .linkRejected: "groupLinkRejected"
        case .profileUpdated: "groupUpdated"
        case .memberContact: "newMemberContactReceivedInv"
        }
    }

    /// The event's members besides `groupInfo`.
    var members: JSONObject {
        switch self {
        case .acceptingLinkRequest(let member): ["member": member.json]
        case .joiningByLink: [:]
        case .linkRejected(let reason): ["rejectionReason": .string(reason)]
        case .profileUpdated(let by, let from, let to):
            ["member_": by.json, "fromGroupProfile": from.json, "toGroupProfile": to.json]
        case .memberContact(let member, let contact):
            ["member": member.json, "contact": ["localDisplayName": .string(contact.localDisplayName)]]
        }
    }
}
