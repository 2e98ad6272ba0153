import Foundation
import Glibc
import TestSupport

@testable import SimpleXTUI

/// Programs the media tests check their output with: zbarimg (Debian's zbar-tools) reads QR
/// codes back, and python3 with gdk-pixbuf's introspection data writes real PNG, JPEG and WebP
/// files the way another program would.
enum MediaTools {
    /// Runs `executable` with its standard output in a file of `directory`; its exit status and output.
    static func run(_ executable: String, _ arguments: [String], in directory: TemporaryDirectory) throws -> (
        status: Int32, output: String
    ) {
        let outputPath = directory.appending("tool-output-\(UInt32.random(in: 0...UInt32.max))")
        let fd = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw TestSupportError("cannot create \(outputPath): errno \(errno)") }
        let environment = ProcessInfo.processInfo.environment
        let process = try SpawnedProcess(
            executable, arguments, environment: environment, streams: [-1, fd, 2])
        close(fd)
        let status = process.waitUntilExit()
        let output = try String(contentsOfFile: outputPath, encoding: .utf8)
        return (status, output)
    }

    /// What zbarimg reads from the QR code `lines` draw, on a terminal whose default text colour
    /// is `ink` and background `paper` (grey levels); explicit colours in the lines win.
    static func scanQRCode(_ lines: [StyledLine], ink: UInt8, paper: UInt8, in directory: TemporaryDirectory)
        throws
        -> String
    {
        let scale = 4  // pixels per module on a side: a cell is one module wide, two high
        let columns = lines.map(\.width).max() ?? 0
        let width = columns * scale
        let height = lines.count * 2 * scale
        var pixels = [UInt8](repeating: paper, count: width * height)
        for (row, line) in lines.enumerated() {
            var column = 0
            for span in line.spans {
                let foreground = grey(span.style.foreground) ?? ink
                let background = grey(span.style.background) ?? paper
                for character in span.text {
                    let (top, bottom) = halves(character)
                    for dy in 0..<(2 * scale) {
                        let inked = dy < scale ? top : bottom
                        for dx in 0..<scale {
                            pixels[(row * 2 * scale + dy) * width + column * scale + dx] =
                                inked ? foreground : background
                        }
                    }
                    column += 1
                }
            }
        }
        // A margin in the terminal's background colour, as around a code on screen.
        let margin = 16
        let framedWidth = width + 2 * margin
        var framed = [UInt8](repeating: paper, count: framedWidth * (height + 2 * margin))
        for y in 0..<height {
            let start = (y + margin) * framedWidth + margin
            framed.replaceSubrange(start..<(start + width), with: pixels[(y * width)..<(y * width + width)])
        }
        let path = directory.appending("qr-\(UInt32.random(in: 0...UInt32.max)).pgm")
        let header = Array("P5\n\(framedWidth) \(height + 2 * margin)\n255\n".utf8)
        try Data(header + framed).write(to: URL(fileURLWithPath: path))
        let result = try run("zbarimg", ["--quiet", "--raw", path], in: directory)
        guard result.status == 0 else {
            throw TestSupportError("zbarimg found no code (status \(result.status))")
        }
        return String(result.output.dropLast())  // zbarimg ends the text with a line break
    }

    /// Writes a `width`×`height` picture, red on its left half (or transparent) and blue on its
    /// right, as `format` (png, jpeg, webp) with gdk-pixbuf from python3.
    static func writeHalfRedHalfBlue(
        _ path: String, width: Int, height: Int, format: String, transparentLeft: Bool = false,
        in directory: TemporaryDirectory
    )
        throws
    {
        let script = """
            import sys, gi
            gi.require_version('GdkPixbuf', '2.0')
            from gi.repository import GdkPixbuf, GLib
            w, h, alpha = int(sys.argv[2]), int(sys.argv[3]), sys.argv[5] == 'alpha'
            red, blue = (b'\\xff\\x00\\x00\\x00', b'\\x00\\x00\\xff\\xff') if alpha else (b'\\xff\\x00\\x00', b'\\x00\\x00\\xff')
            row = b''.join(red if x < w // 2 else blue for x in range(w))
            n = 4 if alpha else 3
            pixbuf = GdkPixbuf.Pixbuf.new_from_bytes(GLib.Bytes.new(row * h), GdkPixbuf.Colorspace.RGB, alpha, 8, w, h, w * n)
            pixbuf.savev(sys.argv[1], sys.argv[4], [], [])
            """
        let result = try run(
            "/usr/bin/python3",
            ["-c", script, path, "\(width)", "\(height)", format, transparentLeft ? "alpha" : "opaque"],
            in: directory)
        guard result.status == 0 else {
            throw TestSupportError("python3 could not write \(path) as \(format)")
        }
    }

    private static func grey(_ color: Color) -> UInt8? {
        guard case .rgb(let r, let g, let b) = color else { return nil }
        let luma: Int = Int(r) * 299 + Int(g) * 587 + Int(b) * 114
        return UInt8(luma / 1000)
    }

    /// Whether a half-block character inks its top and its bottom half.
    private static func halves(_ character: Character) -> (Bool, Bool) {
        switch character {
        case "█": (true, true)
        case "▀": (true, false)
        case "▄": (false, true)
        default: (false, false)
        }
    }
}
