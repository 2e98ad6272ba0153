import Foundation
import SimpleXChat

/// What a share becomes in the chat, as the iOS extension makes it: each file its own item, the
/// text with the first (as its caption), or alone when there are no files; an image (by its
/// extension) as image content with a thumbnail, downscaled and re-encoded when it is too large
/// (`ImagePreparation`); any other file as a file.
public struct SharedItem: Sendable, Equatable {
    /// The file to offer with the message, if any.
    public let path: String?
    public let content: MsgContent
}

public enum SharedItems {
    /// The items for `text` and `files`; a re-encoded image is written into `directory` (beside
    /// the copies the share helper keeps, never beside the user's original). Text alone with a
    /// link becomes link content with the preview `linkPreview` makes of it (nil when the user
    /// does not allow previews, `privacyLinkPreviews`).
    public static func make(
        text: String?, files: [String], writingInto directory: String,
        linkPreview: ((String) -> LinkPreview?)? = nil
    ) throws(ImagePreparation.Failure) -> [SharedItem] {
        guard !files.isEmpty else {
            guard let text else { return [] }
            if let linkPreview, let link = LinkPreviews.firstLink(in: text), let preview = linkPreview(link) {
                return [SharedItem(path: nil, content: .link(text: text, preview: preview))]
            }
            return [SharedItem(path: nil, content: .text(text))]
        }
        var items: [SharedItem] = []
        for (index, file) in files.enumerated() {
            let caption = index == 0 ? (text ?? "") : ""
            guard ImagePreparation.isImageName(file) else {
                items.append(SharedItem(path: file, content: .file(caption)))
                continue
            }
            let image = try ImagePreparation.prepare(path: file)
            var path = file
            if image.reencoded {
                let stem = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
                path = (directory as NSString).appendingPathComponent(stem + ".jpg")
                guard FileManager.default.createFile(atPath: path, contents: Data(image.data), attributes: [.posixPermissions: 0o600])
                else {
                    throw ImagePreparation.Failure(description: "cannot write the resized image to \(directory)")
                }
            }
            items.append(SharedItem(path: path, content: .image(text: caption, image: image.thumbnail)))
        }
        return items
    }
}
