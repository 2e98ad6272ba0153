import Foundation

/// A group as this user has it (SimpleX `GroupInfo`): its local name, profile and the user's own
/// membership.
public struct ChatGroup: Equatable, Sendable {
    public let groupId: Int64
    public var localDisplayName: String
    public var profile: GroupProfile
    public var membership: GroupMember
    /// Which members' messages notify (SimpleX `chatSettings.enableNtfs`); `none` is muted.
    public var enableNtfs: NotificationChat.NotificationSetting = .all
}

/// How a member came to be known (SimpleX `GroupMemberCategory`): the user; a contact the user
/// invited; the host who invited the user; a member introduced to the user when the user joined
/// (`pre`); a member who joined after the user (`post`).
public enum GroupMemberCategory: String, Sendable {
    case user, invitee, host, pre, post
}

/// Where a member is in joining (SimpleX `GroupMemberStatus`).
public enum GroupMemberStatus: String, Sendable {
    case rejected, removed, left, deleted, unknown, invited
    case pendingApproval = "pending_approval"
    case pendingReview = "pending_review"
    case introduced
    case introInvited = "intro-inv"
    case accepted, announced, connected, complete, creator

    /// Out of the group for good (rejected, removed, left, or the group deleted): their
    /// connections go. An invited member is not current, but not gone either: the connection
    /// waits for their acceptance.
    public var isGone: Bool {
        switch self {
        case .rejected, .removed, .left, .deleted: true
        default: false
        }
    }

    /// Members of the group now (SimpleX's "current": introduced ... creator).
    public var isCurrent: Bool {
        switch self {
        case .introduced, .introInvited, .accepted, .announced, .connected, .complete, .creator: true
        default: false
        }
    }
}

/// A member of a group (SimpleX `GroupMember`), the user's own membership included.
public struct GroupMember: Equatable, Sendable {
    public let groupMemberId: Int64
    public let groupId: Int64
    public let memberId: MemberID
    public var role: GroupMemberRole
    public var category: GroupMemberCategory
    public var status: GroupMemberStatus
    public var localDisplayName: String
    public var profile: Profile
    public var contactId: Int64?
    /// The member who invited or introduced this one.
    public var invitedBy: Int64?
    public var connRequest: String?
    /// The connection to this member, once there is one, and whether it is ready.
    public var agentConnectionID: String?
    public var ready: Bool
    /// A moderator blocked the member for all (`x.grp.mem.restrict`): its messages are muted.
    public var blockedByAdmin = false

    /// `bob (Bob)` or `bob`, as SimpleX's CLI names a member.
    public var nameWithFullName: String {
        profile.fullName.isEmpty || profile.fullName == localDisplayName
            ? localDisplayName : "\(localDisplayName) (\(profile.fullName))"
    }

    /// The member as introductions carry it.
    var info: MemberInfo {
        MemberInfo(memberId: memberId, memberRole: role, chatVRange: ChatVersions.supported, profile: profile)
    }
}

/// An item of a group chat: sent by the user (`member` nil) or received from a member.
public struct GroupChatItem: Equatable, Sendable {
    public let itemId: Int64
    public let groupId: Int64
    public let member: GroupMember?
    public let content: MsgContent
    public let timestamp: Date
    public let sharedMsgId: SharedMsgID?
    /// Came forwarded by an admin (x.grp.msg.forward), not from its sender directly.
    public let forwarded: Bool
    /// Its sender changed it (x.msg.update).
    public var edited = false
    /// Its sender deleted it for everyone (x.msg.del): kept, marked deleted.
    public var deleted = false
    /// Hidden by someone else than its sender: a moderator, or blocking its sender for all.
    public var moderation: GroupItemModeration? = nil
    /// A member's message that mentions the user or quotes the user's message (SimpleX
    /// `userMention`): shown `bob!>`, and it notifies in a group set to mentions only.
    public var userMention = false
    /// The item it replies to (a report quotes the reported message).
    public var quote: GroupItemQuote? = nil
    /// The members' and the user's reactions, in the order they came.
    public var reactions: [GroupItemReaction] = []
    /// The file the item offered: the user's offer to the group, or a member's offer to the user.
    public var file: ChatFile? = nil

    public var text: String { content.text }
    /// An event from a member that was refused (not allowed by its role, or not fitting the group).
    public var isError: Bool {
        if case .unknown(let type, _, _) = content, type == "groupError" { true } else { false }
    }
}

/// How an item was hidden by someone else than its sender.
public enum GroupItemModeration: Equatable, Sendable {
    /// A moderator (nil: the user) deleted it for everyone; its content kept, marked deleted.
    case marked(by: GroupMember?)
    /// A moderator (nil: the user) deleted it where the group has full delete: its content gone.
    case removed(by: GroupMember?)
    /// Its sender is blocked for all: kept, not shown nor notified.
    case blocked
}

/// What happened in a group, for the user (SimpleX's group `ChatEvent`s).
public enum GroupChatEvent: Equatable, Sendable {
    /// A contact invited the user (`x.grp.inv`).
    case invitation(ChatGroup, from: String, role: GroupMemberRole)
    /// The user's connection to the host is up: the user is in.
    case userJoined(ChatGroup)
    /// (Host) an invited member joined.
    case memberJoined(ChatGroup, GroupMember)
    /// The host announced a new member (`x.grp.mem.new`), not connected yet.
    case memberAdded(ChatGroup, by: GroupMember, GroupMember)
    /// The user's own connection to a member is up; `newMember` when it joined after the user.
    case memberConnected(ChatGroup, GroupMember, newMember: Bool)
    case newItem(ChatGroup, GroupChatItem)
    /// A member left (`x.grp.leave`).
    case memberLeft(ChatGroup, GroupMember)
    /// `by` changed `member`'s role (the user's own when `member` is the membership).
    case memberRole(ChatGroup, by: GroupMember, GroupMember, from: GroupMemberRole, to: GroupMemberRole)
    /// `by` removed `member` from the group (the user, when `member` is the membership).
    case memberRemoved(ChatGroup, by: GroupMember, GroupMember)
    /// The owner deleted the group (`x.grp.del`); its local copy stays until the user deletes it.
    case groupDeleted(ChatGroup, by: GroupMember)
    /// A member edited an item (`x.msg.update`).
    case itemUpdated(ChatGroup, GroupChatItem)
    /// A member deleted an item for everyone (`x.msg.del`), or a moderator did.
    case itemDeleted(ChatGroup, GroupChatItem)
    /// `by` blocked `member` for all (`x.grp.mem.restrict`), or unblocked it.
    case memberBlocked(ChatGroup, by: GroupMember, GroupMember, blocked: Bool)
    /// Group links, profile and preferences, direct chats between members.
    case change(ChatGroup, GroupChange)
    /// A member added (or removed) a reaction to an item (`x.msg.react`).
    case itemReaction(ChatGroup, GroupChatItem, by: GroupMember, emoji: String, add: Bool)
}
