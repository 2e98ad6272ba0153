import Testing

@testable import SimpleXTUI

/// Pictures placed with a graphics protocol over the boxes their cells are tagged with: at the
/// box, once, moved or deleted as the box moves or leaves, symbols where the box is cut.
@Suite struct ScreenRendererPictureTests {
    static let picture = PictureID(number: 7, box: CellBox(columns: 6, rows: 3))

    /// A 30×12 frame of text rows with `picture`'s box from `top` (maybe above the screen or
    /// below it) at column 4, drawn in symbols "▚" tagged with the picture's rows.
    static func frame(pictureTop top: Int?, picture: PictureID = picture, height: Int = 12) -> Frame {
        var lines = (0..<height).map { StyledLine("row \($0)") }
        if let top {
            for row in 0..<picture.box.rows where (0..<height).contains(top + row) {
                var line = StyledLine("    ")
                line.append(
                    String(repeating: "▚", count: picture.box.columns),
                    Style(foreground: .rgb(200, 0, 0), picture: PictureRow(picture: picture, row: row)))
                line.append(" text right of it")
                lines[top + row] = line
            }
        }
        return Frame(width: 30, height: height, lines: lines)
    }

    /// What the terminal should show as text: the frame, with blanks under the pictures placed.
    static func text(of frame: Frame, blankUnder shown: [ShownPicture]) -> [String] {
        (0..<frame.height).map { row in
            (0..<frame.width).map { column in
                shown.contains { $0.covers(row: row, column: column) } ? " " : frame[row, column].grapheme
            }.joined()
        }
    }

    /// A picture source that counts how often it is asked, with bytes shaped like the store's.
    final class Source {
        var asked: [UInt32] = []
        let kind: GraphicsProtocol
        init(_ kind: GraphicsProtocol) { self.kind = kind }

        func callAsFunction(_ id: PictureID) -> GraphicsImage? {
            asked.append(id.number)
            let (columns, rows) = (id.box.columns, id.box.rows)
            let text: String
            switch kind {
            case .kitty:
                text =
                    "\u{1B}_Ga=t,i=\(id.number),q=2,f=32,s=60,v=60,c=\(columns),r=\(rows),m=1\u{1B}\\"
                    + "\u{1B}_Gm=0;AAAA\u{1B}\\"
            case .sixel:
                text =
                    "\u{1B}P0;1;0q\"1;1;\(columns * 10);\(rows * 20)#0;2;100;0;0#0~~picture\(id.number)\u{1B}\\"
            case .iterm2:
                text =
                    "\u{1B}]1337;File=inline=1;width=\(columns);height=\(rows);preserveAspectRatio=0:picture\(id.number)\u{07}"
            }
            return GraphicsImage(bytes: Array(text.utf8), columns: columns, rows: rows)
        }
    }

    /// Renders `frame`, applies it to `terminal` and checks the text shown; returns the bytes.
    static func show(
        _ frame: Frame, _ renderer: inout Renderer, _ terminal: inout TerminalModel, source: Source
    ) -> String {
        let bytes = renderer.render(frame, pictures: source.callAsFunction)
        terminal.apply(bytes)
        let shown = Array(terminal.kittyPlacements.values) + terminal.drawnPictures
        #expect(terminal.rows == text(of: frame, blankUnder: shown))
        #expect(terminal.unknown.isEmpty)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aKittyPictureIsTransmittedOncePlacedAtItsBoxAndNotSentAgainForAnUnchangedFrame() {
        var renderer = Renderer(colors: .truecolor, graphics: .kitty)
        var terminal = TerminalModel(width: 30, height: 12)
        let source = Source(.kitty)
        let first = Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source)
        #expect(first.contains("\u{1B}_Ga=t,i=7,"))
        #expect(first.contains("\u{1B}[4;5H\u{1B}_Ga=p,i=7,p=1,c=6,r=3,C=1,q=2\u{1B}\\"))
        #expect(
            terminal.kittyPlacements[7] == ShownPicture(row: 3, column: 4, columns: 6, rows: 3, name: "7"))
        #expect(!first.contains("▚"), "the symbols under a placed picture are not written")
        #expect(Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source).isEmpty)
        #expect(source.asked == [7])
    }

    @Test func aMovedKittyPictureIsPlacedAgainWithoutItsPixels() {
        var renderer = Renderer(colors: .truecolor, graphics: .kitty)
        var terminal = TerminalModel(width: 30, height: 12)
        let source = Source(.kitty)
        _ = Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source)
        let moved = Self.show(Self.frame(pictureTop: 2), &renderer, &terminal, source: source)
        #expect(moved.contains("\u{1B}[3;5H\u{1B}_Ga=p,i=7,p=1,c=6,r=3,C=1,q=2"))
        #expect(!moved.contains("a=t"))
        #expect(terminal.kittyPlacements[7]?.row == 2)
        #expect(source.asked == [7])
    }

    @Test(arguments: [-1, 10])
    func aKittyPicturePartlyScrolledOffIsDeletedAndShownInSymbols(top: Int) {
        var renderer = Renderer(colors: .truecolor, graphics: .kitty)
        var terminal = TerminalModel(width: 30, height: 12)
        let source = Source(.kitty)
        _ = Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source)
        let cut = Self.show(Self.frame(pictureTop: top), &renderer, &terminal, source: source)
        #expect(cut.contains("\u{1B}_Ga=d,d=i,i=7,p=1,q=2\u{1B}\\"))
        #expect(terminal.kittyPlacements.isEmpty)
        #expect(terminal.rows[top < 0 ? 0 : 10].hasPrefix("    ▚▚▚▚▚▚ text"))
        // Scrolled back in whole: placed again, its pixels still in the terminal.
        let back = Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source)
        #expect(back.contains("a=p,i=7"))
        #expect(source.asked == [7])
    }

    @Test func aKittyPictureLeavesWithItsChatAndTheTerminalFreesItAtExit() {
        var renderer = Renderer(colors: .truecolor, graphics: .kitty)
        var terminal = TerminalModel(width: 30, height: 12)
        let source = Source(.kitty)
        _ = Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source)
        let otherChat = Self.show(Self.frame(pictureTop: nil), &renderer, &terminal, source: source)
        #expect(otherChat.contains("a=d,d=i,i=7"))
        #expect(terminal.kittyPlacements.isEmpty)
        terminal.apply(renderer.releaseGraphics())
        #expect(terminal.kittyImages.isEmpty)
    }

    @Test func kittyKeepsTheLast32PicturesAndTheOlderOnesAreFreed() {
        var renderer = Renderer(colors: .truecolor, graphics: .kitty)
        var terminal = TerminalModel(width: 30, height: 12)
        let source = Source(.kitty)
        // 40 pictures scroll past, one at a time.
        for number in 1...40 {
            let picture = PictureID(number: UInt32(number), box: Self.picture.box)
            _ = Self.show(Self.frame(pictureTop: 3, picture: picture), &renderer, &terminal, source: source)
        }
        #expect(terminal.kittyImages == Set(9...40))
        #expect(terminal.kittyPlacements.keys.sorted() == [40])
        // One still held comes back without its pixels; one freed is sent again.
        let held = PictureID(number: 20, box: Self.picture.box)
        _ = Self.show(Self.frame(pictureTop: 3, picture: held), &renderer, &terminal, source: source)
        let freed = PictureID(number: 2, box: Self.picture.box)
        _ = Self.show(Self.frame(pictureTop: 3, picture: freed), &renderer, &terminal, source: source)
        #expect(source.asked == Array(1...40) + [2])
        #expect(terminal.kittyPlacements.keys.sorted() == [2])
    }

    @Test func afterAResizeKittyPlacementsAreRemovedAndMadeAgain() {
        var renderer = Renderer(colors: .truecolor, graphics: .kitty)
        var terminal = TerminalModel(width: 30, height: 12)
        let source = Source(.kitty)
        _ = Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source)
        renderer.invalidate()
        let redrawn = Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source)
        #expect(redrawn.hasPrefix("\u{1B}[?2026h\u{1B}_Ga=d,d=a,q=2\u{1B}\\"))
        #expect(redrawn.contains("a=p,i=7") && !redrawn.contains("a=t"))
        #expect(terminal.kittyPlacements.count == 1)
    }

    @Test(arguments: [GraphicsProtocol.sixel, .iterm2])
    func aSixelOrITermPictureIsDrawnAtItsBoxAndAgainOnlyWhenItMoves(kind: GraphicsProtocol) {
        var renderer = Renderer(colors: .truecolor, graphics: kind)
        var terminal = TerminalModel(width: 30, height: 12)
        let source = Source(kind)
        let first = Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source)
        #expect(first.contains(kind == .sixel ? "\u{1B}[4;5H\u{1B}P0;1;0q" : "\u{1B}[4;5H\u{1B}]1337;File="))
        #expect(terminal.drawnPictures.map { [$0.row, $0.column, $0.columns, $0.rows] } == [[3, 4, 6, 3]])
        #expect(Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source).isEmpty)
        #expect(source.asked == [7])
        // One row down: the old box's cells are written again (erasing its pixels), then the
        // picture is drawn at the new place.
        let moved = Self.show(Self.frame(pictureTop: 4), &renderer, &terminal, source: source)
        #expect(moved.contains("\u{1B}[5;5H" + (kind == .sixel ? "\u{1B}P" : "\u{1B}]1337")))
        #expect(terminal.drawnPictures.map(\.row) == [4])
        #expect(source.asked == [7, 7])
    }

    @Test(arguments: [GraphicsProtocol.sixel, .iterm2])
    func aSixelOrITermPictureThatGoesAwayIsWrittenOver(kind: GraphicsProtocol) {
        var renderer = Renderer(colors: .truecolor, graphics: kind)
        var terminal = TerminalModel(width: 30, height: 12)
        let source = Source(kind)
        _ = Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source)
        // The chat closed: blank rows where the picture was, blank under it too, yet written.
        let blank = Frame(width: 30, height: 12)
        let bytes = renderer.render(blank, pictures: source.callAsFunction)
        terminal.apply(bytes)
        #expect(terminal.drawnPictures.isEmpty)
        #expect(terminal.rows == blank.rows)
        // Cut by the top of the chat: symbols for what shows, no picture.
        _ = Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source)
        let cut = Self.show(Self.frame(pictureTop: -2), &renderer, &terminal, source: source)
        #expect(!cut.contains("\u{1B}P") && !cut.contains("1337"))
        #expect(terminal.drawnPictures.isEmpty)
        #expect(terminal.rows[0].hasPrefix("    ▚▚▚▚▚▚"))
    }

    @Test func aSixelPictureOnTheLastRowsIsLeftInSymbolsSoTheTerminalDoesNotScroll() {
        var renderer = Renderer(colors: .truecolor, graphics: .sixel)
        var terminal = TerminalModel(width: 30, height: 12)
        let source = Source(.sixel)
        let bytes = Self.show(Self.frame(pictureTop: 9), &renderer, &terminal, source: source)
        #expect(!bytes.contains("\u{1B}P"))
        #expect(terminal.rows[11].hasPrefix("    ▚▚▚▚▚▚"))
    }

    @Test(arguments: [GraphicsProtocol.kitty, .sixel])
    func anOverlayOverAPictureLeavesItInSymbols(kind: GraphicsProtocol) {
        var renderer = Renderer(colors: .truecolor, graphics: kind)
        var terminal = TerminalModel(width: 30, height: 12)
        let source = Source(kind)
        _ = Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source)
        var menu = Self.frame(pictureTop: 3)
        menu.draw(StyledLine("│ Reply │"), row: 4, column: 6)
        _ = Self.show(menu, &renderer, &terminal, source: source)
        #expect(terminal.kittyPlacements.isEmpty && terminal.drawnPictures.isEmpty)
        #expect(terminal.rows[3].hasPrefix("    ▚▚▚▚▚▚"))
        #expect(terminal.rows[4].hasPrefix("    ▚▚│ Reply │"))
    }

    @Test func withoutAGraphicsProtocolAPictureIsItsSymbols() {
        var renderer = Renderer(colors: .truecolor)
        var terminal = TerminalModel(width: 30, height: 12)
        let source = Source(.kitty)
        let bytes = Self.show(Self.frame(pictureTop: 3), &renderer, &terminal, source: source)
        #expect(!bytes.contains("\u{1B}_G"))
        #expect(terminal.rows[3].hasPrefix("    ▚▚▚▚▚▚"))
        #expect(source.asked.isEmpty)
    }

    @Test func wholePicturesAreThoseWithEveryRowOnScreenUncut() {
        #expect(
            Self.frame(pictureTop: 3).wholePictures() == [Self.picture: ScreenPosition(row: 3, column: 4)])
        #expect(Self.frame(pictureTop: 0).wholePictures().count == 1)
        #expect(Self.frame(pictureTop: -1).wholePictures().isEmpty)
        #expect(Self.frame(pictureTop: 10).wholePictures().isEmpty)
        // Cut by the right edge: two of its six columns are off screen.
        let lines = (0..<12).map { row in
            var line = StyledLine("    ")
            if (3..<6).contains(row) {
                line.append("▚▚▚▚▚▚", Style(picture: PictureRow(picture: Self.picture, row: row - 3)))
            }
            return line
        }
        #expect(Frame(width: 8, height: 12, lines: lines).wholePictures().isEmpty)
    }
}
