import Synchronization

/// The pictures the chat view has laid out, by number, and their graphics-protocol bytes once
/// the renderer asks for them: the layout names a picture by a `PictureID` in the cells' style,
/// and the renderer turns the number back into bytes only when it places the picture.
///
/// A picture keeps its number as long as it is known (the same item, file and box), so a
/// placement that did not change is recognised as the same. Pictures not used for a while are
/// forgotten (past `capacity`); asking for one then gives nil, and the renderer keeps its symbols.
public final class PictureStore: Sendable {
    /// Where a picture's pixels come from.
    public enum Source: Hashable, Sendable {
        case file(path: String)
        /// An image in memory: a message's thumbnail.
        case data([UInt8])
    }

    struct Key: Hashable {
        let name: String
        let source: Source
        let box: CellBox
    }

    struct Known {
        let id: PictureID
        let key: Key
        var lastUse: UInt64
    }

    struct EncodedKey: Hashable {
        let number: UInt32
        let kind: GraphicsProtocol
        let cell: CellPixelSize
    }

    struct State {
        var numbers: [Key: UInt32] = [:]
        var known: [UInt32: Known] = [:]
        var encoded: [EncodedKey: (image: GraphicsImage?, lastUse: UInt64)] = [:]
        var next: UInt32 = 1
        var clock: UInt64 = 0
    }

    /// Pictures known at most; the least recently laid out goes first.
    public let capacity: Int
    /// Encoded pictures kept (a sixel picture is redrawn each time it moves).
    public let encodedCapacity: Int
    private let state = Mutex(State())

    public init(capacity: Int = 1_024, encodedCapacity: Int = 24) {
        self.capacity = max(1, capacity)
        self.encodedCapacity = max(1, encodedCapacity)
    }

    /// The number of the picture `name` (an item's, say) drawn from `source` in `box`: the one it
    /// had if it is known, else a new one.
    public func register(name: String, source: Source, box: CellBox) -> PictureID {
        let key = Key(name: name, source: source, box: box)
        return state.withLock { state in
            state.clock += 1
            if let number = state.numbers[key] {
                state.known[number]?.lastUse = state.clock
                return PictureID(number: number, box: box)
            }
            let id = PictureID(number: state.next, box: box)
            state.next = state.next == UInt32.max ? 1 : state.next + 1
            state.numbers[key] = id.number
            state.known[id.number] = Known(id: id, key: key, lastUse: state.clock)
            if state.known.count > capacity,
                let oldest = state.known.values.min(by: { $0.lastUse < $1.lastUse })
            {
                state.known[oldest.id.number] = nil
                state.numbers[oldest.key] = nil
            }
            return id
        }
    }

    /// The picture as `kind`'s bytes, drawn for cells of `cell` pixels: from the cache, or
    /// decoded and encoded now (outside the lock). For kitty, a transmission under the picture's
    /// number (the renderer places it). Nil when the picture is not known or does not decode.
    public func graphics(_ id: PictureID, as kind: GraphicsProtocol, cell: CellPixelSize) -> GraphicsImage? {
        let key = EncodedKey(number: id.number, kind: kind, cell: cell)
        let lookup = state.withLock { state -> (cached: GraphicsImage??, source: Source?) in
            state.clock += 1
            if let entry = state.encoded[key] {
                state.encoded[key]?.lastUse = state.clock
                return (entry.image, nil)
            }
            return (nil, state.known[id.number]?.key.source)
        }
        if let cached = lookup.cached { return cached }
        guard let source = lookup.source else { return nil }
        let image = Self.encode(source, box: id.box, kind: kind, cell: cell, number: id.number)
        state.withLock { state in
            state.clock += 1
            state.encoded[key] = (image, state.clock)
            if state.encoded.count > encodedCapacity,
                let oldest = state.encoded.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.encoded[oldest] = nil
            }
        }
        return image
    }

    private static func encode(
        _ source: Source, box: CellBox, kind: GraphicsProtocol, cell: CellPixelSize, number: UInt32
    ) -> GraphicsImage? {
        let picture: TerminalImage
        do {
            switch source {
            case .file(let path): picture = try TerminalImage(contentsOfFile: path)
            case .data(let bytes): picture = try TerminalImage(data: bytes)
            }
            let drawn = try picture.graphics(kind, filling: box, cell: cell)
            guard kind == .kitty else { return drawn }
            guard let bytes = KittyGraphics.transmission(fromChafa: drawn.bytes, id: number) else {
                return nil
            }
            return GraphicsImage(bytes: bytes, columns: drawn.columns, rows: drawn.rows)
        } catch {
            return nil
        }
    }

    /// Pictures known now.
    public var count: Int { state.withLock { $0.known.count } }
}
