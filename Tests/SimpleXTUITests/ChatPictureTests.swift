import Foundation
import Testing
import TestSupport

@testable import SimpleXChat
@testable import SimpleXTUI

/// An image message from layout to terminal: the layout leaves the picture's box in symbols
/// tagged with its rows, and the renderer places the real picture there (PictureStore's bytes).
@Suite struct ChatPictureTests {
    static func imageItem(in directory: TemporaryDirectory) throws -> ChatItem {
        let path = directory.appending("photo.png")
        try MediaTools.writeHalfRedHalfBlue(path, width: 200, height: 100, format: "png", in: directory)
        let thumbnail =
            "data:image/png;base64,"
            + (FileManager.default.contents(atPath: path) ?? Data()).base64EncodedString()
        return ChatItem(
            itemId: 41, contactId: 1, direction: .received,
            content: .image(text: "a photo", image: thumbnail),
            status: .rcvRead, timestamp: AppFixture.now, edited: false, deleted: false, forwarded: false,
            sharedMsgId: nil, quote: nil, reactions: [])
    }

    static func frame(_ item: ChatItem, layouter: ChatItemLayouter) -> Frame {
        let layout = layouter.layouter(
            settings: ChatViewSettings(timeZone: TimeZone(identifier: "UTC")!), contactName: "alice",
            now: AppFixture.now, fileProgress: [:])
        return Frame(width: 80, height: 30, lines: layout(item, nil, 80, ChatItemLayouterTests.state))
    }

    @Test func anImageMessageIsPlacedWithKittyOverTheBoxItsLayoutLeft() throws {
        let directory = try TemporaryDirectory("picture")
        let layouter = ChatItemLayouter()
        let frame = Self.frame(try Self.imageItem(in: directory), layouter: layouter)
        let (picture, position) = try #require(frame.wholePictures().first)
        // 2:1 pixels in cells twice as tall as wide: as wide as the 40-column limit allows.
        #expect(picture.box == CellBox(columns: 40, rows: 10))
        // The layout's own cells are the picture in symbols: red on the left (the fallback).
        let left = frame[position.row, position.column].style
        #expect(
            [left.foreground, left.background].contains {
                if case .rgb(let r, _, let b) = $0 { r > 200 && b < 50 } else { false }
            })

        var renderer = Renderer(colors: .truecolor, graphics: .kitty)
        var terminal = TerminalModel(width: 80, height: 30)
        let source = { (id: PictureID) in layouter.pictures.graphics(id, as: .kitty, cell: .typical) }
        let bytes = renderer.render(frame, pictures: source)
        terminal.apply(bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        // Shown as booleans: the bytes hold the whole picture.
        let transmitted = text.contains("\u{1B}_Ga=t,i=\(picture.number),q=2,f=")
        let placedAtTheBox = text.contains(
            "\u{1B}[\(position.row + 1);\(position.column + 1)H\u{1B}_Ga=p,i=\(picture.number),p=1,c=40,r=10,"
        )
        #expect(transmitted)
        #expect(placedAtTheBox)
        #expect(
            terminal.kittyPlacements[picture.number]
                == ShownPicture(
                    row: position.row, column: position.column, columns: 40, rows: 10,
                    name: "\(picture.number)"))
        #expect(terminal.unknown.isEmpty)
        #expect(
            (0..<40).allSatisfy { terminal.cell(position.row, position.column + $0) == .blank },
            "plain blanks under the picture")
        #expect(renderer.render(frame, pictures: source).isEmpty)
    }

    @Test func aSixelImageMessageFitsTheBoxItsLayoutLeft() throws {
        let directory = try TemporaryDirectory("picture")
        let layouter = ChatItemLayouter()
        layouter.setCellPixelSize(CellPixelSize(width: 8, height: 17))
        let frame = Self.frame(try Self.imageItem(in: directory), layouter: layouter)
        let (picture, position) = try #require(frame.wholePictures().first)
        var renderer = Renderer(
            colors: .truecolor, graphics: .sixel, cell: CellPixelSize(width: 8, height: 17))
        var terminal = TerminalModel(width: 80, height: 30)
        terminal.cellPixels = CellPixelSize(width: 8, height: 17)
        terminal.apply(
            renderer.render(frame) {
                layouter.pictures.graphics($0, as: .sixel, cell: CellPixelSize(width: 8, height: 17))
            })
        let drawn = try #require(terminal.drawnPictures.first)
        #expect((drawn.row, drawn.column) == (position.row, position.column))
        #expect(
            drawn.columns <= picture.box.columns && drawn.rows <= picture.box.rows,
            "\(drawn) in \(picture.box)")
        // The box is whole cells around the picture's aspect; the pixels fill most of it.
        #expect(drawn.columns * 10 >= picture.box.columns * 9 && drawn.rows >= picture.box.rows - 1)
        #expect(terminal.unknown.isEmpty)
    }

    @Test func aPictureKeepsItsNumberWhileItsItemSourceAndBoxStay() throws {
        let store = PictureStore(capacity: 2)
        let box = CellBox(columns: 10, rows: 5)
        let first = store.register(name: "item 1", source: .file(path: "/nowhere/a.png"), box: box)
        #expect(store.register(name: "item 1", source: .file(path: "/nowhere/a.png"), box: box) == first)
        let larger = store.register(
            name: "item 1", source: .file(path: "/nowhere/a.png"), box: CellBox(columns: 20, rows: 10))
        #expect(larger.number != first.number)
        // A file that is not there gives no bytes: the renderer keeps the symbols.
        #expect(store.graphics(first, as: .sixel, cell: .typical) == nil)
        // Past its capacity the store forgets the least recently used picture.
        _ = store.register(name: "item 2", source: .data([1, 2, 3]), box: box)
        #expect(store.count == 2)
        #expect(
            store.register(name: "item 1", source: .file(path: "/nowhere/a.png"), box: box).number
                != first.number)
    }
}

/// The image mode: forced by SIMPLEX_GRAPHICS, else detected, then from the terminal's reply.
@Suite struct TerminalGraphicsTests {
    @Test(arguments: [
        ("kitty", ImageRendering.graphics(.kitty)), ("sixel", .graphics(.sixel)),
        ("iterm", .graphics(.iterm2)),
        ("iTerm2", .graphics(.iterm2)), ("symbols", .symbols(.unicode)),
    ])
    func theOverrideForcesAMode(value: String, expected: ImageRendering) throws {
        let environment = [
            "SIMPLEX_GRAPHICS": value, "TERM": "xterm-kitty", "TMUX": "/tmp/x", "LANG": "C.UTF-8",
        ]
        #expect(try GraphicsSupport.forced(environment: environment) == expected)
        var graphics = TerminalGraphics(environment: environment)
        #expect(graphics.rendering == expected)
        #expect(!graphics.asksTerminal)
        graphics.answered(try #require(DeviceAttributes(reply: Array("\u{1B}[?62;4c".utf8))))
        #expect(graphics.rendering == expected)
    }

    @Test func aBadOverrideIsAOneLineErrorAndDetectionGoesOn() {
        #expect(throws: GraphicsOverrideError(value: "pixels")) {
            try GraphicsSupport.forced(environment: ["SIMPLEX_GRAPHICS": "pixels"])
        }
        let graphics = TerminalGraphics(environment: ["SIMPLEX_GRAPHICS": "pixels", "TERM": "xterm-kitty"])
        #expect(
            graphics.problem?.contains("SIMPLEX_GRAPHICS=pixels is not one of kitty, sixel, iterm, symbols")
                == true)
        #expect(graphics.problem?.contains("\n") == false)
        #expect(graphics.graphicsProtocol == .kitty)
    }

    @Test func aPlainTerminalIsAskedAndItsSixelReplyTurnsPicturesOn() throws {
        var graphics = TerminalGraphics(environment: ["TERM": "xterm", "LANG": "C.UTF-8"])
        #expect(graphics.asksTerminal)
        #expect(graphics.graphicsProtocol == nil)
        graphics.answered(try #require(DeviceAttributes(reply: Array("\u{1B}[?63;1;2;4;6;9;15;22c".utf8))))
        #expect(graphics.graphicsProtocol == .sixel)
        #expect(!TerminalGraphics(environment: ["TERM": "xterm-kitty"]).asksTerminal)
    }
}

/// A picture keeps its aspect in a box of whole cells: graphics protocols fill the box, so the
/// picture is put on a transparent canvas of the box's aspect first.
@Suite struct PicturePaddingTests {
    @Test func aWidePictureGetsATransparentMarginBelowATallOneOnTheRight() {
        // 3×1 RGB pixels: red, green, blue.
        let strip = Pixels(
            width: 3, height: 1, rowstride: 12, hasAlpha: false,
            bytes: [255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0])
        let wide = strip.padded(toAspect: 1.5)
        #expect((wide.width, wide.height, wide.hasAlpha) == (3, 2, true))
        #expect(Array(wide.bytes[0..<12]) == [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255])
        #expect(wide.bytes[12...].allSatisfy { $0 == 0 }, "the margin is transparent")
        let tall = strip.padded(toAspect: 6)
        #expect((tall.width, tall.height) == (6, 1))
        #expect(Array(tall.bytes[12..<24]) == Array(repeating: 0, count: 12))
        #expect(strip.padded(toAspect: 3) == strip)
    }

    @Test func aSixelOfAPhotoIsTheBoxsPixelsWithThePhotoUnstretchedInIt() throws {
        let directory = try TemporaryDirectory("picture")
        let path = directory.appending("photo.png")
        try MediaTools.writeHalfRedHalfBlue(path, width: 240, height: 160, format: "png", in: directory)
        let cell = CellPixelSize(width: 9, height: 19)
        let image = try TerminalImage(contentsOfFile: path)
        let box = try image.fittedSize(in: CellBox(columns: 40, rows: 12), cell: cell)
        let kitty = String(
            decoding: try image.graphics(.kitty, filling: box, cell: cell).bytes.prefix(80), as: UTF8.self)
        // The canvas is the box's pixels (fitting the box again would shrink it: 37×12 to 37×11),
        // and the picture in it keeps 3:2, the rest transparent.
        #expect(kitty.contains("s=\(box.columns * 9),v=\(box.rows * 19),"))
    }
}
