import Foundation
import SimpleXChat
import Synchronization

/// The chat view's layout (`ChatViewLayout`) for the open chat, with the lines of each item
/// kept until the item, the one above it, the width or its draw state change: a keystroke
/// redraws the screen without laying out the chat again.
public final class ChatItemLayouter: Sendable {
    struct Key: Hashable {
        let itemId: Int64
        let width: Int
        let state: ItemRenderState
    }

    struct Entry {
        let item: ChatItem
        let older: ChatItem?
        let progress: Int64?
        let minute: Int
        let lines: [StyledLine]
    }

    struct Cache {
        var settings: ChatViewSettings?
        var contactName = ""
        var entries: [Key: Entry] = [:]
        /// The entries before the last turnover, still served (and brought back when used): a
        /// turnover while scrolling through a long chat must not lay out every item on screen
        /// and in the window again in one frame.
        var previous: [Key: Entry] = [:]
        /// Items laid out (not served from the cache), for tests.
        var layouts = 0
        /// The view items (their markdown parsed) of the items last laid out or laid out under:
        /// a draw lays out bottom-up, so the item above one is the next laid out, and its text
        /// is parsed once, not once as "older" and again as itself.
        var viewItems: [Int64: (item: ChatItem, view: ChatViewItem)] = [:]
    }

    /// View items kept for the next layouts (a screen's worth and more).
    static let viewItemCapacity = 128

    /// Entries kept in each generation; beyond it a new one starts and the one before the last
    /// is dropped. A draw lays out only the items on screen (`ChatViewState` counts the rest by
    /// their lines), so this is many screens of items; it bounds the memory scrolling through a
    /// long chat takes (each entry holds its item and lines: a few KB).
    static let capacity = 500
    private let cache = Mutex(Cache())

    /// How images are drawn in cells (Unicode blocks, or ASCII where the locale is not UTF-8).
    let symbols: SymbolSet
    /// Where each picture's cells are registered, so the renderer can place the picture itself
    /// over them (`Style.picture`) where the terminal has a graphics protocol.
    public let pictures: PictureStore
    /// The pixels of a cell, which set a picture's box in cells.
    private let cell = Mutex(CellPixelSize.typical)

    public init(symbols: SymbolSet = .unicode, pictures: PictureStore = PictureStore()) {
        self.symbols = symbols
        self.pictures = pictures
    }

    /// The terminal's cell size changed (a new font size): pictures get new boxes, so every item
    /// is laid out again.
    public func setCellPixelSize(_ size: CellPixelSize) {
        let changed = cell.withLock { cell in
            defer { cell = size }
            return cell != size
        }
        if changed { cache.withLock { $0 = Cache() } }
    }

    /// The cell size pictures are fitted with: another may change every item's lines.
    public var cellPixelSize: CellPixelSize { cell.withLock { $0 } }

    /// A layouter for `contactName`'s chat with `settings`, at `now`, with file progress in
    /// percent by file id.
    public func layouter(
        settings: ChatViewSettings, contactName: String, now: Date, fileProgress: [Int64: Int]
    ) -> ItemLayouter {
        cache.withLock { cache in
            if cache.settings != settings || cache.contactName != contactName {
                cache = Cache(settings: settings, contactName: contactName)
            }
        }
        // Times and date separators are relative to now: a new minute lays out again.
        let minute = Int(now.timeIntervalSince1970 / 60)
        return { [self] item, older, width, state in
            let progress = item.file.flatMap { file in
                fileProgress[file.fileId].map { Int64($0) * file.fileSize / 100 }
            }
            let key = Key(itemId: item.itemId, width: width, state: state)
            let cached = self.cache.withLock { cache -> Entry? in
                if let hit = cache.entries[key] { return hit }
                guard let hit = cache.previous.removeValue(forKey: key) else { return nil }
                Self.insert(hit, for: key, into: &cache)
                return hit
            }
            if let hit = cached, hit.item == item, hit.older == older, hit.progress == progress, hit.minute == minute {
                return hit.lines
            }
            let picture = self.picture(item, width: width)
            let viewItem =
                progress == nil && picture == nil
                ? self.viewItem(item, contactName: contactName, userName: settings.userName)
                : ChatViewItem(
                    item, contactName: contactName, userName: settings.userName, fileProgress: progress,
                    mediaCells: picture.map { CellSize(columns: $0.id.box.columns, rows: $0.id.box.rows) })
            let viewOlder = older.map { self.viewItem($0, contactName: contactName, userName: settings.userName) }
            var laidOut = ChatViewLayout.layout(
                for: viewItem, older: viewOlder, width: width, settings: settings, state: state, now: now)
            if let picture, let media = laidOut.media {
                self.draw(picture, into: &laidOut.lines, at: media)
            }
            let lines = laidOut.lines
            self.cache.withLock { cache in
                cache.layouts += 1
                Self.insert(
                    Entry(item: item, older: older, progress: progress, minute: minute, lines: lines), for: key, into: &cache)
            }
            return lines
        }
    }

    /// `item`'s view item without file progress or a picture, parsed once while it is kept.
    private func viewItem(_ item: ChatItem, contactName: String, userName: String) -> ChatViewItem {
        if let kept = cache.withLock({ $0.viewItems[item.itemId] }), kept.item == item { return kept.view }
        let view = ChatViewItem(item, contactName: contactName, userName: userName)
        cache.withLock { cache in
            if cache.viewItems.count >= Self.viewItemCapacity { cache.viewItems.removeAll(keepingCapacity: true) }
            cache.viewItems[item.itemId] = (item, view)
        }
        return view
    }

    /// The picture of an image item: the received or sent file once it is all here, else the
    /// thumbnail the message carries; fitted to at most 40×12 cells (less in a narrow chat).
    private func picture(_ item: ChatItem, width: Int) -> (image: TerminalImage, id: PictureID)? {
        guard case .image(_, let thumbnail) = item.content, !item.deleted else { return nil }
        var found: (TerminalImage, PictureStore.Source)?
        if let file = item.file, let path = file.filePath, file.status == .rcvComplete || file.direction == .sent {
            if file.fileKey != nil {
                // Sealed at rest: decoded from the decrypted bytes, in memory only.
                if let bytes = try? LocalFile.contents(of: file),
                    let image = try? TerminalImage(data: bytes, name: file.fileName)
                {
                    found = (image, .data(bytes))
                }
            } else if let image = try? TerminalImage(contentsOfFile: path) {
                found = (image, .file(path: path))
            }
        }
        if found == nil, let comma = thumbnail.firstIndex(of: ","),
            let data = Data(base64Encoded: String(thumbnail[thumbnail.index(after: comma)...])),
            let image = try? TerminalImage(data: Array(data), name: "thumbnail")
        {
            found = (image, .data(Array(data)))
        }
        guard let (image, source) = found else { return nil }
        let box = CellBox(columns: max(4, min(40, width - 6)), rows: 12)
        let cell = self.cell.withLock { $0 }
        guard let fitted = try? image.fittedSize(in: box, cell: cell), fitted.columns > 0, fitted.rows > 0
        else { return nil }
        return (image, pictures.register(name: "item \(item.itemId)", source: source, box: fitted))
    }

    /// The picture drawn in symbols into the box the layout left for it, its cells tagged with
    /// the picture's rows (`Style.picture`), padded to the box so the renderer sees it whole.
    private func draw(
        _ picture: (image: TerminalImage, id: PictureID), into lines: inout [StyledLine], at media: MediaPlacement
    ) {
        let cell = self.cell.withLock { $0 }
        guard let drawn = try? picture.image.symbols(fitting: picture.id.box, using: symbols, cell: cell) else {
            return
        }
        for row in 0..<picture.id.box.rows where media.line + row < lines.count {
            let line = row < drawn.count ? drawn[row] : StyledLine()
            let tag = PictureRow(picture: picture.id, row: row)
            var tagged = StyledLine()
            for span in line.padded(to: picture.id.box.columns).spans {
                var style = span.style
                style.picture = tag
                tagged.append(span.text, style)
            }
            let target = lines[media.line + row]
            lines[media.line + row] = target.overlaid(
                tagged, at: media.column, totalWidth: max(target.width, media.column + tagged.width))
        }
    }

    private static func insert(_ entry: Entry, for key: Key, into cache: inout Cache) {
        if cache.entries.count >= capacity, cache.entries[key] == nil {
            cache.previous = cache.entries
            cache.entries = [:]
        }
        cache.entries[key] = entry
    }

    /// Items laid out so far (cache misses), for tests.
    var layoutCount: Int { cache.withLock { $0.layouts } }
}
