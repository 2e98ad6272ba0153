extension Pixels {
    /// The picture on a transparent canvas of `aspect` (width / height), the picture at its top
    /// left; itself when it already has that aspect to within a pixel.
    ///
    /// Graphics protocols fill the cells' whole box with the canvas, and a box of whole cells
    /// rarely has the picture's own aspect: without the margin a sixel would come out stretched
    /// by up to half a cell each way (a 3:2 photo in 37×11 cells of 9×19 pixels: 6% too wide).
    func padded(toAspect aspect: Double) -> Pixels {
        guard aspect > 0, width > 0, height > 0 else { return self }
        var newWidth = width
        var newHeight = height
        if Double(width) / Double(height) > aspect {
            newHeight = Int((Double(width) / aspect).rounded())
        } else {
            newWidth = Int((Double(height) * aspect).rounded())
        }
        guard newWidth > width || newHeight > height else { return self }
        let channels = hasAlpha ? 4 : 3
        let stride = newWidth * 4
        var bytes = [UInt8](repeating: 0, count: stride * newHeight)
        for row in 0..<height {
            let source = row * rowstride
            let target = row * stride
            for column in 0..<width {
                let from = source + column * channels
                let to = target + column * 4
                bytes[to] = self.bytes[from]
                bytes[to + 1] = self.bytes[from + 1]
                bytes[to + 2] = self.bytes[from + 2]
                bytes[to + 3] = hasAlpha ? self.bytes[from + 3] : 255
            }
        }
        return Pixels(width: newWidth, height: newHeight, rowstride: stride, hasAlpha: true, bytes: bytes)
    }
}
