import Foundation
import Testing
import TestSupport

@testable import SimpleXTUI

/// Drawing the same image every frame reads and decodes it once.
@Suite struct TerminalImageCacheTests {
    @Test func aSecondDrawingOfTheSameBoxDoesNotReadTheFileAgain() throws {
        let directory = try TemporaryDirectory("image-cache")
        let path = try TerminalImageTests.halfRedHalfBlue("png", in: directory)
        let cache = TerminalImageCache()
        let box = CellBox(columns: 20, rows: 10)
        let first = try cache.image(atPath: path, fitting: box, as: .symbols(.unicode))
        try FileManager.default.removeItem(atPath: path)
        // The file is gone: only a cached drawing can answer.
        #expect(try cache.image(atPath: path, fitting: box, as: .symbols(.unicode)) == first)
        // Another box or rendering is another drawing, which needs the file.
        #expect(throws: MediaError.self) {
            try cache.image(atPath: path, fitting: CellBox(columns: 10, rows: 5), as: .symbols(.unicode))
        }
        #expect(throws: MediaError.self) {
            try cache.image(atPath: path, fitting: box, as: .graphics(.kitty))
        }
        cache.remove(path: path)
        #expect(cache.count == 0)
        #expect(throws: MediaError.self) {
            try cache.image(atPath: path, fitting: box, as: .symbols(.unicode))
        }
    }

    @Test func aFailureIsKeptSoTheFileIsNotReadEachFrame() throws {
        let directory = try TemporaryDirectory("image-cache")
        let path = directory.appending("broken.png")
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: path))
        let cache = TerminalImageCache()
        let box = CellBox(columns: 20, rows: 10)
        let error = #expect(throws: MediaError.self) {
            try cache.image(atPath: path, fitting: box, as: .symbols(.unicode))
        }
        try MediaTools.writeHalfRedHalfBlue(path, width: 20, height: 10, format: "png", in: directory)
        #expect(
            #expect(throws: MediaError.self) {
                try cache.image(atPath: path, fitting: box, as: .symbols(.unicode))
            } == error)
        cache.remove(path: path)
        #expect(throws: Never.self) { try cache.image(atPath: path, fitting: box, as: .symbols(.unicode)) }
    }

    @Test func theLeastRecentlyUsedDrawingGoesFirst() throws {
        let directory = try TemporaryDirectory("image-cache")
        let path = try TerminalImageTests.halfRedHalfBlue("png", in: directory)
        let cache = TerminalImageCache(capacity: 2)
        let small = CellBox(columns: 4, rows: 2)
        let medium = CellBox(columns: 8, rows: 4)
        let large = CellBox(columns: 16, rows: 8)
        _ = try cache.image(atPath: path, fitting: small, as: .symbols(.unicode))
        _ = try cache.image(atPath: path, fitting: medium, as: .symbols(.unicode))
        _ = try cache.image(atPath: path, fitting: small, as: .symbols(.unicode))  // small is used again
        _ = try cache.image(atPath: path, fitting: large, as: .symbols(.unicode))  // medium goes
        #expect(cache.count == 2)
        try FileManager.default.removeItem(atPath: path)
        #expect(throws: Never.self) { try cache.image(atPath: path, fitting: small, as: .symbols(.unicode)) }
        #expect(throws: Never.self) { try cache.image(atPath: path, fitting: large, as: .symbols(.unicode)) }
        #expect(throws: MediaError.self) {
            try cache.image(atPath: path, fitting: medium, as: .symbols(.unicode))
        }
    }
}
