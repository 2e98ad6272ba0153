internal import CChafa

// One owner per chafa handle (CONVENTIONS.md "C libraries"): each frees its handle in deinit.
// They live only while one image is drawn, on one thread, so none of them is Sendable.

/// A `ChafaSymbolMap`: the characters symbols mode may draw with.
final class SymbolMapHandle {
    let pointer: OpaquePointer

    init(_ symbols: SymbolSet) throws(MediaError) {
        guard let pointer = chafa_symbol_map_new() else {
            throw MediaError(subject: "image", reason: .libraryFailure("chafa_symbol_map_new"))
        }
        self.pointer = pointer
        let tags: [ChafaSymbolTags]
        switch symbols {
        case .unicode: tags = [CHAFA_SYMBOL_TAG_BLOCK, CHAFA_SYMBOL_TAG_BORDER, CHAFA_SYMBOL_TAG_SPACE]
        case .ascii: tags = [CHAFA_SYMBOL_TAG_ASCII, CHAFA_SYMBOL_TAG_SPACE]
        }
        let all = tags.reduce(0) { $0 | $1.rawValue }
        chafa_symbol_map_add_by_tags(pointer, ChafaSymbolTags(rawValue: all))
    }

    deinit { chafa_symbol_map_unref(pointer) }
}

/// A `ChafaCanvasConfig`: the canvas's size in cells, the pixels of a cell, and how it draws.
final class CanvasConfigHandle {
    let pointer: OpaquePointer

    init(box: CellBox, cell: CellPixelSize, mode: ImageRendering) throws(MediaError) {
        guard let pointer = chafa_canvas_config_new() else {
            throw MediaError(subject: "image", reason: .libraryFailure("chafa_canvas_config_new"))
        }
        self.pointer = pointer
        chafa_canvas_config_set_geometry(pointer, Int32(box.columns), Int32(box.rows))
        chafa_canvas_config_set_cell_geometry(pointer, Int32(cell.width), Int32(cell.height))
        // Truecolor cells; the renderer lowers them for terminals with fewer colours.
        chafa_canvas_config_set_canvas_mode(pointer, CHAFA_CANVAS_MODE_TRUECOLOR)
        switch mode {
        case .symbols(let symbols):
            chafa_canvas_config_set_pixel_mode(pointer, CHAFA_PIXEL_MODE_SYMBOLS)
            // The config keeps a copy of the map; the map must live until it is taken.
            let map = try SymbolMapHandle(symbols)
            withExtendedLifetime(map) { chafa_canvas_config_set_symbol_map(pointer, map.pointer) }
        case .graphics(.kitty): chafa_canvas_config_set_pixel_mode(pointer, CHAFA_PIXEL_MODE_KITTY)
        case .graphics(.sixel): chafa_canvas_config_set_pixel_mode(pointer, CHAFA_PIXEL_MODE_SIXELS)
        case .graphics(.iterm2): chafa_canvas_config_set_pixel_mode(pointer, CHAFA_PIXEL_MODE_ITERM2)
        }
    }

    deinit { chafa_canvas_config_unref(pointer) }
}

/// A `ChafaCanvas` with a picture drawn on it.
final class CanvasHandle {
    let pointer: OpaquePointer

    init(_ config: CanvasConfigHandle, pixels: Pixels) throws(MediaError) {
        guard let pointer = chafa_canvas_new(config.pointer) else {
            throw MediaError(subject: "image", reason: .libraryFailure("chafa_canvas_new"))
        }
        self.pointer = pointer
        let type = pixels.hasAlpha ? CHAFA_PIXEL_RGBA8_UNASSOCIATED : CHAFA_PIXEL_RGB8
        pixels.bytes.withUnsafeBufferPointer { bytes in
            chafa_canvas_draw_all_pixels(
                pointer, type, bytes.baseAddress, Int32(pixels.width), Int32(pixels.height),
                Int32(pixels.rowstride))
        }
    }

    deinit { chafa_canvas_unref(pointer) }

    /// The character of the cell at `column`, `row` (0 for the right half of a wide one).
    func character(column: Int, row: Int) -> UInt32 {
        chafa_canvas_get_char_at(pointer, Int32(column), Int32(row))
    }

    /// The cell's foreground and background: packed 0xRRGGBB, or -1 where it is transparent.
    func colors(column: Int, row: Int) -> (foreground: Int32, background: Int32) {
        var foreground: Int32 = -1
        var background: Int32 = -1
        chafa_canvas_get_colors_at(pointer, Int32(column), Int32(row), &foreground, &background)
        return (foreground, background)
    }

    /// The escape sequences that draw the canvas (graphics protocols), from chafa's terminal
    /// database's fallback sequences, which hold the kitty, sixel and iTerm2 ones.
    func printed() throws(MediaError) -> [UInt8] {
        guard let termInfo = chafa_term_db_get_fallback_info(chafa_term_db_get_default()) else {
            throw MediaError(subject: "image", reason: .libraryFailure("chafa_term_db_get_fallback_info"))
        }
        defer { chafa_term_info_unref(termInfo) }
        guard let string = chafa_canvas_print(pointer, termInfo) else {
            throw MediaError(subject: "image", reason: .libraryFailure("chafa_canvas_print"))
        }
        defer { g_string_free(string, 1) }
        return [UInt8](UnsafeRawBufferPointer(start: string.pointee.str, count: Int(string.pointee.len)))
    }
}
