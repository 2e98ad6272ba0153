/// How the client draws pictures on this terminal: as `SIMPLEX_GRAPHICS` forces, else as the
/// environment says (`GraphicsSupport.detect`), then, where that gives symbols, as the
/// terminal's reply to the device attributes query says (sixel), once it answers.
///
/// `NO_COLOR` does not turn pictures into symbols: it asks for text without colour, and a
/// picture in a chat is the message itself (symbols without colour would show nothing of it).
struct TerminalGraphics {
    let environment: [String: String]
    /// What `SIMPLEX_GRAPHICS` forces; detection does not override it.
    let forced: ImageRendering?
    /// The one-line error for a `SIMPLEX_GRAPHICS` that names no mode.
    let problem: String?
    private(set) var rendering: ImageRendering

    init(environment: [String: String]) {
        self.environment = environment
        var forced: ImageRendering?
        var problem: String?
        do { forced = try GraphicsSupport.forced(environment: environment) } catch {
            problem = error.description
        }
        self.forced = forced
        self.problem = problem
        rendering = forced ?? GraphicsSupport.detect(environment: environment)
    }

    /// Whether to ask the terminal (`CSI c`): nothing is forced and the environment named no protocol.
    var asksTerminal: Bool {
        guard forced == nil, case .symbols = rendering else { return false }
        return true
    }

    /// The protocol pictures are placed with; nil for symbols.
    var graphicsProtocol: GraphicsProtocol? {
        guard case .graphics(let kind) = rendering else { return nil }
        return kind
    }

    /// The terminal answered the device attributes query.
    mutating func answered(_ reply: DeviceAttributes) {
        guard forced == nil else { return }
        rendering = GraphicsSupport.detect(environment: environment, deviceAttributes: reply)
    }

    /// The primary device attributes query.
    static let query = ControlSequence.csi("c")
}
