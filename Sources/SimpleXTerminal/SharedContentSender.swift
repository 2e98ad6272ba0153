import Foundation
import SimpleXChat
import SimpleXDesktop

/// What `Share` brings to a running client (a reply typed into a notification, the share
/// helper), sent as the share helper makes items: the text with the first file, images with
/// thumbnails, a link with its preview where the user allows previews. The line mode and the
/// full-screen client both send through it.
enum SharedContentSender {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The items `content` makes (file:// URIs as paths), or why it makes none.
    private static func items(
        of content: ClientHandoff.SharedContent, linkPreviews: Bool
    ) throws(Failure) -> [SharedItem] {
        guard content.text?.isEmpty == false || !content.files.isEmpty else {
            throw Failure(description: "Share: nothing to send (text or files)")
        }
        let files = content.files.map { $0.hasPrefix("file://") ? (URL(string: $0)?.path ?? $0) : $0 }
        do {
            return try SharedItems.make(
                text: content.text.flatMap { $0.isEmpty ? nil : $0 }, files: files,
                writingInto: files.first.map { ($0 as NSString).deletingLastPathComponent } ?? "",
                linkPreview: linkPreviews ? { LinkPreviews.fetch($0) } : nil)
        } catch {
            throw Failure(description: "Share: \(error.description)")
        }
    }

    /// Sends `content` to `contact`; returns the items sent, in order.
    static func send(
        _ content: ClientHandoff.SharedContent, to contact: ChatContact, chat: ChatController, linkPreviews: Bool
    ) async throws -> [ChatItem] {
        let items = try items(of: content, linkPreviews: linkPreviews)
        var sent: [ChatItem] = []
        for item in items {
            if let path = item.path {
                sent.append(try await chat.sendFile(to: contact.localDisplayName, path: path, content: item.content))
            } else {
                sent.append(try await chat.send(to: contact.localDisplayName, item.content))
            }
        }
        return sent
    }

    /// Sends `content` to `group` as to a contact (files offered to every member); returns the last
    /// item sent.
    static func send(
        _ content: ClientHandoff.SharedContent, to group: ChatGroup, chat: ChatController, linkPreviews: Bool = false
    ) async throws -> GroupChatItem {
        let items = try items(of: content, linkPreviews: linkPreviews)
        var last: GroupChatItem?
        for item in items {
            last =
                if let path = item.path {
                    try await chat.sendGroupFile(group.localDisplayName, path: path, content: item.content)
                } else {
                    try await chat.sendGroup(group.localDisplayName, item.content)
                }
        }
        guard let last else { throw Failure(description: "Share: nothing to send (text or files)") }
        return last
    }

    /// The group of chat reference `ref` (`#3`), if there is one.
    static func group(_ ref: String, chat: ChatController) async -> ChatGroup? {
        guard ref.hasPrefix("#"), let id = Int64(ref.dropFirst()) else { return nil }
        return try? await chat.groups().first { $0.groupId == id }
    }

    /// The contact of chat reference `ref` (`@12`), if there is one.
    static func contact(_ ref: String, chat: ChatController) async -> ChatContact? {
        guard ref.hasPrefix("@"), let id = Int64(ref.dropFirst()) else { return nil }
        return try? await chat.contact(id: id)
    }
}
