import Foundation
import SimpleXProtocol

/// The group's profile, welcome message and preferences: changed by an owner (`x.grp.info`,
/// `x.grp.prefs` to every member), checked by each receiver (from an owner, or an error item),
/// and enforced where a feature applies.
extension ChatController {
    /// Sets the group's profile (`/gp team new_name [full name]`, `/set welcome #team text`, the
    /// preferences): owners only. Returns the group as it was and as it is now; nothing is sent
    /// when nothing changes.
    public func updateGroupProfile(_ name: String, _ change: @Sendable (inout GroupProfile) -> Void)
        async throws(ChatError) -> (from: ChatGroup, to: ChatGroup)
    {
        let group = try store.group(named: name, user)
        try requireRole(.owner, in: group)
        var profile = group.profile
        change(&profile)
        if let problem = Profile.displayNameProblem(profile.displayName) { throw .invalidCommand(problem) }
        guard profile != group.profile else { return (group, group) }
        // Only the preferences changed: x.grp.prefs says just that (SimpleX sends it for them).
        var withOldPreferences = profile
        withOldPreferences.groupPreferences = group.profile.groupPreferences
        let event: GroupEvent =
            withOldPreferences == group.profile ? .prefs(profile.preferences) : .info(profile)
        try store.updateGroupProfile(user, group, profile)
        try await sendToReadyMembers(.group(event), in: group)
        return (group, try store.group(id: group.groupId))
    }

    /// Turns a feature on or off for the group (`/set files #team off`); `role` limits it to
    /// members with that role or above, `ttl` is for disappearing messages.
    public func setGroupPreference(
        _ name: String, _ feature: GroupPreferences.Feature, on: Bool, role: GroupMemberRole? = nil,
        ttl: Int? = nil
    ) async throws(ChatError) -> (from: ChatGroup, to: ChatGroup) {
        try await updateGroupProfile(name) { profile in
            var preferences = profile.preferences
            var preference = preferences.preferences[feature] ?? .init(enable: on)
            preference.enable = on
            preference.role = on ? role : nil
            if feature == .timedMessages {
                preference.ttl = on ? (ttl ?? preference.ttl ?? 86_400) : preference.ttl
            }
            preferences.preferences[feature] = preference
            profile.preferences = preferences
        }
    }

    /// `x.grp.info` or `x.grp.prefs` from `sender`: applied when it is an owner (and the profile
    /// is not a channel's); whether it was.
    func groupProfileEvent(_ event: GroupEvent, from sender: GroupMember, in group: ChatGroup)
        throws(ChatError)
        -> Bool
    {
        guard sender.role == .owner else {
            refuse(group, sender, "\(event.name) from \(sender.role.withArticle), not an owner")
            return false
        }
        var profile = group.profile
        switch event {
        case .info(let new):
            guard !new.isPublicGroup else {
                refuse(group, sender, "x.grp.info that makes the group a channel")
                return false
            }
            profile = new
        case .prefs(let preferences): profile.preferences = preferences
        default: return false
        }
        if let problem = Profile.displayNameProblem(profile.displayName) {
            refuse(group, sender, "x.grp.info with an unusable name: \(problem)")
            return false
        }
        guard profile != group.profile else { return false }  // Came directly and forwarded.
        try store.updateGroupProfile(user, group, profile)
        emit(.group(.change(group, .profileUpdated(by: sender, from: group.profile, to: profile))))
        return true
    }

    /// (Host) the welcome message (the profile's `description`) to a new member, after the
    /// history: a message from the host, as SimpleX sends it; the host keeps no item of it.
    func sendWelcome(to member: GroupMember, in group: ChatGroup) async throws(ChatError) {
        guard let welcome = group.profile.description, !welcome.isEmpty else { return }
        var generator = SystemRandomNumberGenerator()
        try await send(
            .msgNew(MsgContainer(content: .text(welcome))), to: member,
            msgId: SharedMsgID.random(using: &generator))
    }

    /// Why a received message may not be taken in this group (a file where files are off), or nil.
    func featureProblem(of container: MsgContainer, from sender: GroupMember, in group: ChatGroup) -> String?
    {
        if container.file != nil, !group.profile.preferences.allows(.files, role: sender.role) {
            return "a file, where files and media are prohibited"
        }
        return nil
    }

    /// Refuses what the group's preferences forbid the user (`/f #team` where files are off).
    public func requireGroupFeature(_ feature: GroupPreferences.Feature, in name: String) throws(ChatError) {
        let group = try store.group(named: name, user)
        guard group.profile.preferences.allows(feature, role: group.membership.role) else {
            throw .invalidCommand("#\(group.localDisplayName): \(feature.title.lowercased()) not allowed")
        }
    }
}

extension ChatGroup {
    /// The group's preferences (SimpleX's `fullGroupPreferences`): what each feature is now.
    public var preferences: GroupPreferences { profile.preferences }
}
