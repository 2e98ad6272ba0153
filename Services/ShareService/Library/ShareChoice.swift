import SimpleXChat

/// A chat a share can go to from the picker or the dialog: a contact's chat or a group.
enum ShareChoice: Equatable {
    case contact(ChatContact)
    case group(ChatGroup)

    /// Why the group cannot take this share (shown greyed beside it), or nil: the user must be a
    /// member who may send, and files need a group that allows them for the user's role.
    static func groupProblem(_ group: ChatGroup, files: Bool) -> String? {
        switch group.membership.status {
        case .invited: return "not joined yet"
        case let status where !status.isCurrent: return "no longer a member"
        default: break
        }
        guard group.membership.role >= .author else { return "you are an observer" }
        guard !files || group.profile.allowsGroupFeature("files", role: group.membership.role) else {
            return "files are prohibited here"
        }
        return nil
    }
}
