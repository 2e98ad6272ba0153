// The JSON of blocks, in the style of SimpleX's (tagged by "type" first, zero counts and absent
// optionals left out, runs as in formattedText):
//
// {"blocks":[BLOCK...],"trailingEmptyLines":1}
// BLOCK:
//   {"type":"paragraph","emptyLinesBefore":1,"text":[RUN...]}
//   {"type":"heading","level":2,"text":[RUN...]}
//   {"type":"bulletList","marker":"-","items":[ITEM...]}
//   {"type":"orderedList","start":1,"delimiter":".","items":[ITEM...]}
//   {"type":"quote","blocks":[BLOCK...]}
//   {"type":"codeBlock","language":"swift","code":"let x = 1"}
//   {"type":"table","alignments":["none","left","center","right"],"header":[[RUN...]...],"rows":[[[RUN...]...]...]}
//   {"type":"rule","markup":"---"}
// ITEM: {"emptyLinesBefore":1,"blocks":[BLOCK...]}
// RUN: {"format":{"type":"bold"},"text":"b"} or {"text":"plain"}

extension MarkdownBlocks {
    /// The blocks as JSON.
    public var json: MarkdownJSON {
        var members: [(key: String, value: MarkdownJSON)] = [("blocks", .array(blocks.map(\.json)))]
        if trailingEmptyLines > 0 { members.append(("trailingEmptyLines", .int(trailingEmptyLines))) }
        return .object(members)
    }
}

extension MarkdownBlock {
    /// The block as JSON.
    public var json: MarkdownJSON {
        var members: [(key: String, value: MarkdownJSON)] = []
        func add(_ key: String, _ value: MarkdownJSON) { members.append((key, value)) }
        func runs(_ text: [FormattedText]) -> MarkdownJSON { .array(text.map(\.json)) }
        func items(_ items: [MarkdownListItem]) -> MarkdownJSON { .array(items.map(\.json)) }
        add("type", .string(typeTag))
        if emptyLinesBefore > 0 { add("emptyLinesBefore", .int(emptyLinesBefore)) }
        switch content {
        case .paragraph(let text): add("text", runs(text))
        case .heading(let level, let text):
            add("level", .int(level))
            add("text", runs(text))
        case .bulletList(let marker, let list):
            add("marker", .string(marker))
            add("items", items(list))
        case .orderedList(let start, let delimiter, let list):
            add("start", .int(start))
            add("delimiter", .string(delimiter))
            add("items", items(list))
        case .quote(let blocks): add("blocks", .array(blocks.map(\.json)))
        case .codeBlock(let language, let code):
            if let language { add("language", .string(language)) }
            add("code", .string(code))
        case .table(let table):
            add("alignments", .array(table.alignments.map { .string($0.rawValue) }))
            add("header", .array(table.header.map(runs)))
            add("rows", .array(table.rows.map { .array($0.map(runs)) }))
        case .rule(let markup): add("markup", .string(markup))
        }
        return .object(members)
    }

    /// The JSON `type` tag.
    public var typeTag: String {
        switch content {
        case .paragraph: return "paragraph"
        case .heading: return "heading"
        case .bulletList: return "bulletList"
        case .orderedList: return "orderedList"
        case .quote: return "quote"
        case .codeBlock: return "codeBlock"
        case .table: return "table"
        case .rule: return "rule"
        }
    }
}

extension MarkdownListItem {
    /// The item as JSON.
    public var json: MarkdownJSON {
        var members: [(key: String, value: MarkdownJSON)] = []
        if emptyLinesBefore > 0 { members.append(("emptyLinesBefore", .int(emptyLinesBefore))) }
        members.append(("blocks", .array(blocks.map(\.json))))
        return .object(members)
    }
}

extension MarkdownBlocks: Encodable {
    public func encode(to encoder: Encoder) throws { try json.encode(to: encoder) }
}
