/// Which pictures a render places, and the cells that matter for them.
struct PicturePlan {
    /// The frame to write: the given one with blank cells under each picture placed.
    var frame: Frame
    /// The pictures on screen after this render, and the bytes of those not yet drawn there.
    var placements: [PictureID: ScreenPosition] = [:]
    var bytes: [PictureID: GraphicsImage] = [:]
    /// Pictures already on screen whose cells the text has just written over (sixel, iTerm2:
    /// the text erased them there), so they are drawn again.
    var overwritten: Set<PictureID> = []
    /// Per cell (sixel, iTerm2; empty otherwise): the picture placed over it, and whether it
    /// must be written even if unchanged (a picture that went away left its pixels there).
    private var cover: [PictureID?] = []
    private var forced: [Bool] = []
    private let width: Int

    init(frame: Frame) {
        self.frame = frame
        width = frame.width
    }

    func isForced(row: Int, column: Int) -> Bool { !forced.isEmpty && forced[row * width + column] }

    func isCovered(row: Int, column: Int) -> Bool { !cover.isEmpty && cover[row * width + column] != nil }

    mutating func noteWritten(row: Int, column: Int, width cells: Int) {
        guard !cover.isEmpty else { return }
        for offset in 0..<max(1, cells) where column + offset < width {
            if let picture = cover[row * width + column + offset] { overwritten.insert(picture) }
        }
    }

    /// Calls `body` with the index of each cell of `picture`'s box at `position`, clipped to the frame.
    private func eachCell(of picture: PictureID, at position: ScreenPosition, _ body: (Int) -> Void) {
        for row in position.row..<min(frame.height, position.row + picture.box.rows) where row >= 0 {
            for column in position.column..<min(width, position.column + picture.box.columns)
            where column >= 0 {
                body(row * width + column)
            }
        }
    }

    mutating func cover(_ picture: PictureID, at position: ScreenPosition) {
        if cover.isEmpty { cover = Array(repeating: nil, count: width * frame.height) }
        eachCell(of: picture, at: position) { cover[$0] = picture }
    }

    mutating func force(_ picture: PictureID, at position: ScreenPosition) {
        if forced.isEmpty { forced = Array(repeating: false, count: width * frame.height) }
        eachCell(of: picture, at: position) { forced[$0] = true }
    }
}

extension Renderer {
    /// kitty images kept in the terminal beyond those on screen, so scrolling back to a picture
    /// does not send its pixels again; older ones are freed.
    static let keptKittyImages = 32

    /// The pictures to place in `frame`: those whose box is whole on screen and that are either
    /// there already or can be drawn now; the rest keep their symbols.
    ///
    /// A picture cut by the edge of the chat (scrolled partly away) or by an overlay is drawn in
    /// symbols for that frame rather than skipped: while scrolling, the user still sees what
    /// moves past, and a blank hole would look like a picture that failed. Sixel and iTerm2
    /// pixels cannot be clipped to cells, so a partial pixel picture is not an option there (kitty
    /// could crop one), and one rule for every protocol keeps the chat the same everywhere.
    mutating func planPictures(_ frame: Frame, source: ((PictureID) -> GraphicsImage?)?) -> PicturePlan {
        var plan = PicturePlan(frame: frame)
        guard let kind = graphics, let source else { return plan }
        for (picture, position) in frame.wholePictures() {
            // A sixel or iTerm2 picture leaves the cursor below it: on the last row the terminal
            // would scroll. (The chat never reaches it; an overlay or a test frame might.)
            if kind != .kitty, position.row + picture.box.rows >= frame.height { continue }
            if placed[picture] != position, kind != .kitty || !transmitted.contains(picture.number) {
                guard let image = source(picture) else { continue }
                plan.bytes[picture] = image
            }
            plan.placements[picture] = position
        }
        for (picture, position) in plan.placements {
            plan.frame.fillBox(picture.box, at: position)
            if kind != .kitty, placed[picture] == position { plan.cover(picture, at: position) }
        }
        if kind != .kitty {
            // Sixel and iTerm2 pixels stay until text is written over them.
            for (picture, position) in placed where plan.placements[picture] != position {
                plan.force(picture, at: position)
            }
        }
        return plan
    }

    /// The placements after the text: new and moved pictures (and, for sixel and iTerm2, those
    /// the text wrote over) drawn, kitty placements gone from the screen deleted.
    mutating func writePictures(
        _ plan: inout PicturePlan, source: ((PictureID) -> GraphicsImage?)?, into out: inout [UInt8]
    ) {
        guard let kind = graphics else { return }
        let before = placed
        if kind == .kitty {
            for picture in before.keys where plan.placements[picture] == nil {
                out += KittyGraphics.removePlacement(picture.number)
            }
        }
        // Top to bottom, left to right: the same bytes for the same frame.
        let ordered = plan.placements.sorted {
            ($0.value.row, $0.value.column, $0.key.number) < ($1.value.row, $1.value.column, $1.key.number)
        }
        var drewAny = false
        for (picture, position) in ordered {
            let moved = before[picture] != position
            guard moved || (kind != .kitty && plan.overwritten.contains(picture)) else { continue }
            drewAny = true
            if kind == .kitty {
                if let transmission = plan.bytes[picture] {
                    out += transmission.bytes
                    transmitted.append(picture.number)
                }
                ControlSequence.moveCursor(row: position.row, column: position.column, into: &out)
                out += KittyGraphics.place(picture.number, box: picture.box)
                kittyMayShowPlacements = true
            } else if let image = plan.bytes[picture] ?? source?(picture) {
                ControlSequence.moveCursor(row: position.row, column: position.column, into: &out)
                out += image.bytes
            } else {
                // Its bytes are gone (the store forgot it): not placed, so the next frame writes
                // its symbols over the blank box.
                plan.placements[picture] = nil
            }
        }
        if drewAny { cursorAt = nil }
        placed = plan.placements
        if kind == .kitty { freeKittyImages(into: &out) }
    }

    /// Frees the oldest kitty images beyond `keptKittyImages`, never one on screen.
    private mutating func freeKittyImages(into out: inout [UInt8]) {
        guard transmitted.count > Self.keptKittyImages else { return }
        let onScreen = Set(placed.keys.map(\.number))
        var excess = transmitted.count - Self.keptKittyImages
        transmitted.removeAll { number in
            guard excess > 0, !onScreen.contains(number) else { return false }
            excess -= 1
            out += KittyGraphics.free(number)
            return true
        }
    }

    /// The bytes that take every picture off the terminal and free what it holds for them: on
    /// the way out (exit, Ctrl+Z). Sixel and iTerm2 pixels go with the alternate screen.
    public mutating func releaseGraphics() -> [UInt8] {
        var out: [UInt8] = []
        if kittyMayShowPlacements { out += KittyGraphics.removeAllPlacements }
        for number in transmitted { out += KittyGraphics.free(number) }
        transmitted = []
        kittyMayShowPlacements = false
        invalidate()
        return out
    }
}

extension Frame {
    /// Blank, plain cells over `box` at `position` (under a picture placed there).
    mutating func fillBox(_ box: CellBox, at position: ScreenPosition) {
        for row in position.row..<(position.row + box.rows) {
            fill(row: row, column: position.column, count: box.columns)
        }
    }
}
