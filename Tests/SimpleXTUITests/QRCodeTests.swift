import Testing
import TestSupport

@testable import SimpleXTUI

/// QR codes of links scan back to the link, in colour on any theme and without colour on a dark
/// terminal (read by zbarimg from a picture of the drawn lines).
@Suite struct QRCodeTests {
    static let invitation =
        "https://simplex.chat/invitation#/?v=2-7&smp=smp%3A%2F%2Fu2dS9sG8nMNURyZwqASV4yROM28Er0luVTx5X1CsMrU%3D%40smp4.simplex.im%2FoXpa4kXh9rP3E5qEj5S2_lRvq5f3IqZA%23%2F%3Fv%3D1-3%26dh%3DMCowBQYDK2VuAyEAh1g3yAQ4vFq6Yp0hS7Np9R8nTwQ&e2e=v%3D2-3%26x3dh%3DMEIwBQYDK2VvAzkA"

    @Test func colouredCodeScansOnLightAndDarkTerminals() throws {
        let directory = try TemporaryDirectory("qr")
        let code = try QRCode(Self.invitation)
        #expect(code.errorCorrection == .medium)
        let lines = code.lines(.colors)
        #expect(try MediaTools.scanQRCode(lines, ink: 0, paper: 255, in: directory) == Self.invitation)
        // A dark theme's colours do not matter: the code brings its own.
        #expect(try MediaTools.scanQRCode(lines, ink: 230, paper: 20, in: directory) == Self.invitation)
    }

    @Test func plainCodeScansOnTheTerminalItIsMadeFor() throws {
        let directory = try TemporaryDirectory("qr")
        let code = try QRCode("simplex:/contact#/?v=2-7&smp=smp%3A%2F%2Fabc%40example.org")
        let light = code.lines(.lightInk)
        #expect(light.allSatisfy { $0.spans.allSatisfy { $0.style == .plain } })
        #expect(try MediaTools.scanQRCode(light, ink: 230, paper: 20, in: directory) == code.text)
        #expect(
            try MediaTools.scanQRCode(code.lines(.darkInk), ink: 20, paper: 230, in: directory) == code.text)
        // Light ink on a light terminal is a negative, which scanners do not read.
        #expect(throws: TestSupportError.self) {
            try MediaTools.scanQRCode(light, ink: 20, paper: 230, in: directory)
        }
    }

    @Test func halfBlocksHoldTwoModuleRowsInsideTheQuietZone() throws {
        let code = try QRCode("https://simplex.chat")
        let lines = code.lines(.colors)
        let zone = QRCode.quietZone
        #expect(code.size == 21 || code.size == 25)
        #expect(lines.count == (code.size + 2 * zone + 1) / 2)
        #expect(lines.allSatisfy { $0.width == code.size + 2 * zone })
        #expect(lines[0].text == String(repeating: " ", count: code.width))
        #expect(lines.allSatisfy { $0.text.hasPrefix(String(repeating: " ", count: zone)) })
        // The top-left finder pattern: code rows 0 (all dark) and 1 (dark, 5 light, dark) are
        // the halves of text row 2.
        let row2 = Array(lines[zone / 2].text)
        #expect(String(row2[zone..<(zone + 7)]) == "█▀▀▀▀▀█")
        for y in 0..<code.size {
            for x in 0..<code.size {
                let cell = Array(lines[(y + zone) / 2].text)[x + zone]
                let inked = (y + zone) % 2 == 0 ? "▀█".contains(cell) : "▄█".contains(cell)
                #expect(inked == code.isDark(x: x, y: y))
            }
        }
    }

    @Test func longLinkFallsBackToLowCorrectionToFitAndStillScans() throws {
        let directory = try TemporaryDirectory("qr")
        let link = Self.invitation + String(repeating: "&pad=0123456789abcdefXYZ", count: 30)
        #expect(link.utf8.count > 900)
        let medium = try QRCode(link)
        let fitted = try QRCode(link, maxWidth: medium.width - 1)
        #expect(medium.errorCorrection == .medium)
        #expect(fitted.errorCorrection == .low)
        #expect(fitted.width < medium.width)
        #expect(try MediaTools.scanQRCode(fitted.lines(), ink: 0, paper: 255, in: directory) == link)
    }

    @Test func textTooLongForAnyCodeIsRefused() throws {
        let error = #expect(throws: MediaError.self) { try QRCode(String(repeating: "x", count: 3_000)) }
        #expect(error?.reason == .tooLongForQRCode(bytes: 3_000))
        #expect(error?.description == "link: 3000 bytes are too many for a QR code")
        // More than M holds at its largest, fewer than L does: L it is.
        #expect(try QRCode(String(repeating: "x", count: 2_500)).errorCorrection == .low)
    }
}
