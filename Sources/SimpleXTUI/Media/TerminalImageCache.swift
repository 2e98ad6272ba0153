import Synchronization

/// Images drawn for the terminal, by file, box, rendering and cell size: a view that draws the
/// same image every frame decodes and scales it once. Failures are kept too, so a file that is not
/// an image is not read again each frame. A file is taken not to change under the same path (a
/// received file is written once); `remove(path:)` forgets one that did.
public final class TerminalImageCache: Sendable {
    struct Key: Hashable {
        let path: String
        let box: CellBox
        let rendering: ImageRendering
        let cell: CellPixelSize
    }

    struct Entry {
        let result: Result<RenderedImage, MediaError>
        var lastUse: UInt64
    }

    struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
    }

    /// Entries kept; past it the least recently used goes.
    public let capacity: Int
    private let state = Mutex(State())

    public init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// The image at `path` drawn in `box`: from the cache, or decoded and drawn now (outside the
    /// lock, so other images are served meanwhile).
    public func image(
        atPath path: String, fitting box: CellBox, as rendering: ImageRendering, cell: CellPixelSize = .typical
    ) throws(MediaError) -> RenderedImage {
        let key = Key(path: path, box: box, rendering: rendering, cell: cell)
        let cached = state.withLock { state -> Result<RenderedImage, MediaError>? in
            state.clock += 1
            guard var entry = state.entries[key] else { return nil }
            entry.lastUse = state.clock
            state.entries[key] = entry
            return entry.result
        }
        let result =
            cached
            ?? Result { () throws(MediaError) -> RenderedImage in
                try TerminalImage(contentsOfFile: path).render(rendering, fitting: box, cell: cell)
            }
        if cached == nil {
            state.withLock { state in
                state.clock += 1
                state.entries[key] = Entry(result: result, lastUse: state.clock)
                if state.entries.count > capacity,
                    let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
                {
                    state.entries[oldest] = nil
                }
            }
        }
        return try result.get()
    }

    /// Forgets every drawing of the file at `path`.
    public func remove(path: String) {
        state.withLock { state in state.entries = state.entries.filter { $0.key.path != path } }
    }

    /// Entries held now.
    public var count: Int { state.withLock { $0.entries.count } }
}
