import Foundation
import Testing
import TestSupport

@testable import SimpleXTUI

/// Pictures written by another program (python3's gdk-pixbuf) show what they hold: a half red,
/// half blue picture is red on the left and blue on the right, in cells or in protocol bytes.
@Suite struct TerminalImageTests {
    /// 200×100 pixels: twice as wide as high.
    static func halfRedHalfBlue(_ format: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.appending("picture.\(format == "jpeg" ? "jpg" : format)")
        try MediaTools.writeHalfRedHalfBlue(path, width: 200, height: 100, format: format, in: directory)
        return path
    }

    @Test(arguments: ["png", "jpeg", "webp"])
    func symbolsAreRedOnTheLeftAndBlueOnTheRight(format: String) throws {
        let directory = try TemporaryDirectory("image")
        let image = try TerminalImage(contentsOfFile: try Self.halfRedHalfBlue(format, in: directory))
        let lines = try image.symbols(fitting: CellBox(columns: 20, rows: 20))
        // 2:1 pixels in cells twice as tall as wide: 20 columns, 5 rows.
        #expect(lines.count == 5)
        for line in lines {
            #expect(line.width == 20)
            let cells = Self.cells(line)
            for cell in cells[0..<8] { #expect(cell.allSatisfy(Self.isRed), "\(format) left: \(cell)") }
            for cell in cells[12..<20] { #expect(cell.allSatisfy(Self.isBlue), "\(format) right: \(cell)") }
        }
    }

    @Test func transparentPartsShowTheTerminalsOwnBackground() throws {
        let directory = try TemporaryDirectory("image")
        let path = directory.appending("sticker.png")
        try MediaTools.writeHalfRedHalfBlue(
            path, width: 200, height: 100, format: "png", transparentLeft: true, in: directory)
        let lines = try TerminalImage(contentsOfFile: path).symbols(fitting: CellBox(columns: 20, rows: 5))
        for line in lines {
            let cells = Self.cells(line)
            for cell in cells[0..<8] { #expect(cell == [.default], "left: \(cell)") }
            for cell in cells[12..<20] { #expect(cell.allSatisfy(Self.isBlue), "right: \(cell)") }
        }
    }

    @Test func gifShowsItsFirstFrame() throws {
        // Two frames of one pixel, from a two-colour table (red, blue): red first, then blue.
        var gif = Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00]
        gif += [0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF]
        for lzw: [UInt8] in [[0x44, 0x01], [0x4C, 0x01]] {
            gif += [0x21, 0xF9, 0x04, 0x00, 0x0A, 0x00, 0x00, 0x00]  // 0.1 s a frame
            gif += [0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02] + lzw + [0x00]
        }
        gif.append(0x3B)
        let image = try TerminalImage(data: gif, name: "sticker.gif")
        let lines = try image.symbols(fitting: CellBox(columns: 4, rows: 2))
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { Self.cells($0).allSatisfy { $0.allSatisfy(Self.isRed) } })
    }

    @Test func asciiSymbolsForALocaleThatIsNotUTF8() throws {
        let directory = try TemporaryDirectory("image")
        let image = try TerminalImage(contentsOfFile: try Self.halfRedHalfBlue("png", in: directory))
        let symbols = SymbolSet.detect(environment: ["LANG": "C"])
        #expect(symbols == .ascii)
        let lines = try image.symbols(fitting: CellBox(columns: 20, rows: 5), using: symbols)
        #expect(lines.count == 5)
        #expect(lines.allSatisfy { $0.text.unicodeScalars.allSatisfy { $0.isASCII } && $0.width == 20 })
        #expect(SymbolSet.detect(environment: ["LANG": "C", "LC_CTYPE": "en_GB.UTF-8"]) == .unicode)
        #expect(SymbolSet.detect(environment: ["LC_ALL": "de_DE.utf8", "LANG": "C"]) == .unicode)
    }

    @Test func graphicsProtocolsGiveTheirEscapeSequencesForTheFittedBox() throws {
        let directory = try TemporaryDirectory("image")
        let image = try TerminalImage(contentsOfFile: try Self.halfRedHalfBlue("png", in: directory))
        let box = CellBox(columns: 40, rows: 40)
        let kitty = try image.graphics(.kitty, fitting: box)
        #expect((kitty.columns, kitty.rows) == (40, 10))
        let kittyText = String(decoding: kitty.bytes, as: UTF8.self)
        #expect(kittyText.hasPrefix("\u{1B}_G"))
        #expect(kittyText.contains("c=40,r=10"))
        let sixel = String(decoding: try image.graphics(.sixel, fitting: box).bytes, as: UTF8.self)
        #expect(sixel.hasPrefix("\u{1B}P"))
        #expect(sixel.prefix(12).contains("q"))
        #expect(sixel.hasSuffix("\u{1B}\\"))
        let iterm = String(decoding: try image.graphics(.iterm2, fitting: box).bytes, as: UTF8.self)
        #expect(iterm.hasPrefix("\u{1B}]1337;File="))
        #expect(iterm.contains("width=40;height=10"))
        // Square cells: the same picture takes twice the rows.
        #expect(
            try image.fittedSize(in: box, cell: CellPixelSize(width: 10, height: 10))
                == CellBox(columns: 40, rows: 20))
    }

    @Test func aFileThatIsNotAnImageSaysWhichAndWhy() throws {
        let directory = try TemporaryDirectory("image")
        let path = directory.appending("notes.jpg")
        try Data("just some text".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: MediaError.self) { try TerminalImage(contentsOfFile: path) }
        #expect(error?.subject == "notes.jpg")
        #expect(error?.description.hasPrefix("notes.jpg: not an image that can be shown (") == true)
        #expect(error?.description.contains("\n") == false)
        let missing = #expect(throws: MediaError.self) {
            try TerminalImage(contentsOfFile: directory.appending("gone.png"))
        }
        #expect(missing?.subject == "gone.png")
        let bytes = #expect(throws: MediaError.self) { try TerminalImage(data: Array("<html>".utf8)) }
        #expect(bytes?.description.hasPrefix("image data: not an image") == true)
    }

    @Test func aBoxWithoutCellsIsRefused() throws {
        let directory = try TemporaryDirectory("image")
        let image = try TerminalImage(contentsOfFile: try Self.halfRedHalfBlue("png", in: directory))
        for box in [
            CellBox(columns: 0, rows: 5), CellBox(columns: 5, rows: 0), CellBox(columns: -1, rows: 3),
        ] {
            let error = #expect(throws: MediaError.self) { try image.symbols(fitting: box) }
            #expect(error?.reason == .emptyBox(columns: box.columns, rows: box.rows))
            #expect(throws: MediaError.self) { try image.graphics(.kitty, fitting: box) }
        }
        #expect(
            #expect(throws: MediaError.self) { try image.symbols(fitting: CellBox(columns: 0, rows: 2)) }?
                .description
                == "picture.png: cannot be drawn in a box of 0×2 cells")
    }

    // MARK: - Reading cells

    /// Each cell of a line: the colours a user sees in it (a space shows its background, a full
    /// block its foreground, any other symbol both).
    static func cells(_ line: StyledLine) -> [[Color]] {
        var cells: [[Color]] = []
        for span in line.spans {
            for character in span.text {
                switch character {
                case " ": cells.append([span.style.background])
                case "█": cells.append([span.style.foreground])
                default: cells.append([span.style.foreground, span.style.background])
                }
            }
        }
        return cells
    }

    static func isRed(_ color: Color) -> Bool {
        guard case .rgb(let r, let g, let b) = color else { return false }
        return r > 200 && g < 60 && b < 60
    }

    static func isBlue(_ color: Color) -> Bool {
        guard case .rgb(let r, let g, let b) = color else { return false }
        return b > 200 && r < 60 && g < 60
    }
}
