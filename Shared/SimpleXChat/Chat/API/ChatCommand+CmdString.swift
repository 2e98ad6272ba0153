extension ChatCommand {
    /// The command as SimpleX's apps write it (iOS `ChatCommand.cmdString`); `parse` reads it back.
    public var cmdString: String {
        switch self {
        case .showActiveUser: "/u"
        case .createActiveUser(let name): "/create user " + Self.quotedName(name)
        case .startChat(let mainApp, let sndFiles):
            "/_start main=\(onOff(mainApp)) snd_files=\(onOff(sndFiles))"
        case .apiGetChats(let userId, let pcc): "/_get chats \(userId)" + (pcc ? " pcc=on" : "")
        case .apiGetChat(let ref, let content, let pagination, let search):
            "/_get chat \(ref)" + (content.map { " content=" + $0.contentType } ?? "")
                + " \(pagination.cmdString)"
                + (search.map { " search=" + $0 } ?? "")
        case .apiGetChatItemInfo(let ref, let itemId): "/_get item info \(ref) \(itemId)"
        case .apiSendMessages(let ref, let live, let ttl, let messages):
            "/_send \(ref) live=\(onOff(live)) ttl=\(Self.ttlString(ttl)) json "
                + JSON.array(messages.map(\.json)).compactText
        case .apiUpdateChatItem(let ref, let itemId, let live, let message):
            "/_update item \(ref) \(itemId) live=\(onOff(live)) json \(message.json.compactText)"
        case .apiDeleteChatItem(let ref, let itemIds, let mode):
            "/_delete item \(ref) \(Self.ids(itemIds)) \(mode.rawValue)"
        case .apiChatItemReaction(let ref, let itemId, let add, let reaction):
            "/_reaction \(ref) \(itemId) \(onOff(add)) \(reaction.apiJSON.compactText)"
        case .apiForwardChatItems(let to, let from, let itemIds, let ttl):
            "/_forward \(to) \(from) \(Self.ids(itemIds)) ttl=\(Self.ttlString(ttl))"
        case .apiChatRead(let ref): "/_read chat \(ref)"
        case .apiChatItemsRead(let ref, let itemIds): "/_read chat items \(ref) \(Self.ids(itemIds))"
        case .apiChatUnread(let ref, let unread): "/_unread chat \(ref) \(onOff(unread))"
        case .apiClearChat(let ref): "/_clear chat \(ref)"
        case .apiAddContact(let userId, let incognito): "/_connect \(userId) incognito=\(onOff(incognito))"
        case .apiConnect(let userId, let incognito, let link):
            "/_connect \(userId) incognito=\(onOff(incognito)) \(link)"
        case .apiAcceptContact(let incognito, let requestId):
            "/_accept incognito=\(onOff(incognito)) \(requestId)"
        case .apiRejectContact(let requestId): "/_reject \(requestId)"
        case .apiCreateMyAddress(let userId): "/_address \(userId)"
        case .apiShowMyAddress(let userId): "/_show_address \(userId)"
        case .apiDeleteMyAddress(let userId): "/_delete_address \(userId)"
        case .apiDeleteChat(let ref, let mode): "/_delete \(ref) \(mode.cmdString)"
        case .apiListContacts(let userId): "/_contacts \(userId)"
        case .apiCreateGroupLink(let groupId, let role): "/_create link #\(groupId) \(role.rawValue)"
        case .apiGroupLinkMemberRole(let groupId, let role): "/_set link role #\(groupId) \(role.rawValue)"
        case .apiDeleteGroupLink(let groupId): "/_delete link #\(groupId)"
        case .apiGetGroupLink(let groupId): "/_get link #\(groupId)"
        case .apiUpdateGroupProfile(let groupId, let profile):
            "/_group_profile #\(groupId) \(profile.json.compactText)"
        case .apiBlockMembersForAll(let groupId, let memberIds, let blocked):
            "/_block #\(groupId) \(Self.ids(memberIds)) blocked=\(onOff(blocked))"
        case .apiDeleteMemberChatItem(let groupId, let itemIds):
            "/_delete member item #\(groupId) \(Self.ids(itemIds))"
        case .apiSetContactAlias(let contactId, let alias):
            "/_set alias @\(contactId)" + (alias.isEmpty ? "" : " " + alias)
        case .apiUpdateProfile(let userId, let profile): "/_profile \(userId) \(profile.json.compactText)"
        case .apiSetUserContactReceipts(let userId, let enable, let clear):
            "/_set receipts contacts \(userId) \(onOff(enable)) clear_overrides=\(onOff(clear))"
        case .setUserContactReceipts(let enable, let clear):
            "/set receipts contacts \(onOff(enable)) clear_overrides=\(onOff(clear))"
        case .setAllContactReceipts(let enable): "/set receipts all \(onOff(enable))"
        case .setUserFeature(let feature, let allowed): "/set \(feature.commandWord) \(allowed.rawValue)"
        case .setUserTimedMessages(let allow): "/set disappear \(allow ? "yes" : "no")"
        case .setSendReceipts(let name, let enable):
            "/receipts @\(Self.quotedName(name)) " + (enable.map(onOff) ?? "default")
        case .apiSetChatSettings(let ref, let settings): "/_settings \(ref) \(settings.json.compactText)"
        case .setShowMessages(let name, let enableNtfs):
            (enableNtfs == .none ? "/mute @" : "/unmute @") + Self.quotedName(name)
        case .setGroupShowMessages(let name, let enableNtfs):
            (enableNtfs == .none ? "/mute #" : enableNtfs == .mentions ? "/unmute mentions #" : "/unmute #")
                + Self.quotedName(name)
        case .apiParseMarkdown(let text): "/_parse markdown " + text
        case .getUserProtoServers: "/smp"
        case .setUserProtoServers(let servers): "/smp " + servers.joined(separator: " ")
        }
    }

    /// A display name as SimpleX's command parser reads one: in single quotes when it has a
    /// space or a comma.
    static func quotedName(_ name: String) -> String {
        name.contains(" ") || name.contains(",") ? "'\(name)'" : name
    }

    static func ttlString(_ ttl: Int?) -> String { ttl.map(String.init) ?? "default" }

    static func ids(_ ids: [Int64]) -> String { ids.map(String.init).joined(separator: ",") }
}

func onOff(_ flag: Bool) -> String { flag ? "on" : "off" }

extension ChatPagination {
    /// `count=N`, `after=ID count=N`, `before=ID count=N`, `around=ID count=N`, `initial=N`.
    public var cmdString: String {
        switch self {
        case .last(let count): "count=\(count)"
        case .after(let itemId, let count): "after=\(itemId) count=\(count)"
        case .before(let itemId, let count): "before=\(itemId) count=\(count)"
        case .around(let itemId, let count): "around=\(itemId) count=\(count)"
        case .initial(let count): "initial=\(count)"
        }
    }
}

extension ChatDeleteMode {
    /// `full notify=on`, `entity notify=off`, `messages` (iOS `ChatDeleteMode.cmdString`).
    public var cmdString: String {
        switch self {
        case .full(let notify): "full notify=\(onOff(notify))"
        case .entity(let notify): "entity notify=\(onOff(notify))"
        case .messages: "messages"
        }
    }
}
