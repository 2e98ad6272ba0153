import Foundation
import SimpleXProtocol

/// A reaction to a group item: by a member (`groupMemberId`) or by the user (nil).
public struct GroupItemReaction: Equatable, Sendable {
    public let emoji: String
    public let groupMemberId: Int64?

    public var byUser: Bool { groupMemberId == nil }
}

/// The item a group item replies to, as the reply carried it.
public struct GroupItemQuote: Equatable, Sendable {
    public let content: MsgContent
    /// The quoted item's author: a member, or the user's own membership.
    public let member: GroupMember?
    public let sharedMsgId: SharedMsgID?
    /// The author's member id as the quoting message named it (a report names the reported member).
    public var memberId: MemberID? = nil

    /// Whether the user wrote the quoted item.
    public var byUser: Bool { member?.category == .user }
}

extension GroupItemQuote {
    /// A report's quote of the reported message (its author `member`, the user's membership when
    /// the user wrote it).
    public init(sharedMsgId: SharedMsgID?, member: GroupMember?, memberId: MemberID?, content: MsgContent) {
        self.init(content: content, member: member, sharedMsgId: sharedMsgId, memberId: memberId ?? member?.memberId)
    }
}

extension GroupProfile {
    /// Whether the group's preference `feature` (`reactions`, `files`, ...) lets a member of `role`
    /// use it, as `GroupPreferences.allows` reads it (SimpleX's defaults where it is not set).
    public func allowsGroupFeature(_ feature: String, role: GroupMemberRole) -> Bool {
        guard let feature = GroupPreferences.Feature(rawValue: feature) else { return false }
        return preferences.allows(feature, role: role)
    }
}
