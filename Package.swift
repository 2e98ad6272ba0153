// swift-tools-version:6.0
// SimpleX Chat for Linux: one package, layout as ../shared/DESIGN.md §2.
import PackageDescription

let package = Package(
    name: "simplex-chat-linux",
    products: [
        .executable(name: "simplex-chat", targets: ["simplex-chat"]),
        .executable(name: "smp-server", targets: ["smp-server"]),
        .executable(name: "simplex-nse", targets: ["simplex-nse"]),
        .executable(name: "simplex-share", targets: ["simplex-share"]),
    ],
    targets: [
        // C libraries behind Swift modules (CONVENTIONS.md "C libraries").
        .systemLibrary(
            name: "CSQLite", path: "Shared/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CSodium", path: "Shared/CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(
            name: "CDBus", path: "Shared/CDBus", pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CSystem", path: "Shared/CSystem"),
        // Our own C: SHA-256 on the x86 SHA extensions, which libsodium does not use.
        .target(name: "CSHA256", path: "Shared/CSHA256"),
        // Our own C: the SQLite VFS that encrypts database pages with libsodium.
        .target(
            name: "CSQLiteCrypt", dependencies: ["CSQLite", "CSodium"], path: "Shared/CSQLiteCrypt",
            linkerSettings: [.linkedLibrary("sqlite3"), .linkedLibrary("sodium")]),
        .systemLibrary(
            name: "CNotify", path: "Shared/CNotify", pkgConfig: "libnotify",
            providers: [.apt(["libnotify-dev"])]),
        .systemLibrary(
            name: "CCurl", path: "Shared/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CGdkPixbuf", path: "Shared/CGdkPixbuf", pkgConfig: "gdk-pixbuf-2.0",
            providers: [.apt(["libgdk-pixbuf-2.0-dev", "webp-pixbuf-loader"])]),
        .systemLibrary(
            name: "CUtf8proc", path: "Shared/CUtf8proc", providers: [.apt(["libutf8proc-dev"])]),
        .systemLibrary(name: "CChafa", path: "Shared/CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev"])]),
        .systemLibrary(
            name: "CQRencode", path: "Shared/CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),

        // The framework every process links (iOS: SimpleXChat).
        .target(name: "SimpleXCrypto", dependencies: ["CSodium", "CSHA256"], path: "Shared/SimpleXCrypto"),
        .target(
            name: "SimpleXProtocol", dependencies: ["SimpleXCrypto"], path: "Shared/SimpleXProtocol"),
        // Transport and system (simplexmq's Transport layer): what the relay and the client share.
        .target(name: "SimpleXSystem", dependencies: ["SimpleXCrypto", "CSystem"], path: "Shared/SimpleXSystem"),
        .target(
            name: "SimpleXNetwork", dependencies: ["SimpleXSystem", "CSystem"], path: "Shared/SimpleXNetwork"),
        .target(
            name: "SimpleXChat",
            dependencies: ["SimpleXCrypto", "SimpleXProtocol", "SimpleXSystem", "SimpleXNetwork", "CSQLite", "CSQLiteCrypt"],
            path: "Shared/SimpleXChat"),
        .target(
            name: "SimpleXDesktop",
            dependencies: ["SimpleXChat", "SimpleXCrypto", "SimpleXSystem", "CDBus", "CNotify", "CGdkPixbuf", "CCurl"],
            path: "Shared/SimpleXDesktop"),

        // Executables: thin mains over their libraries.
        // The full-screen client: screen (widths, cells, input, renderer), pure layouts, the app model.
        .target(
            name: "SimpleXTUI",
            dependencies: ["SimpleXChat", "SimpleXDesktop", "SimpleXProtocol", "SimpleXSystem", "CUtf8proc", "CChafa", "CQRencode", "CGdkPixbuf", "CSystem"],
            path: "Sources/SimpleXTUI"),
        .target(
            name: "SimpleXTerminal",
            dependencies: ["SimpleXChat", "SimpleXCrypto", "SimpleXDesktop", "SimpleXProtocol", "SimpleXSystem", "SimpleXTUI"],
            path: "Sources/SimpleXTerminal"),
        .executableTarget(
            name: "simplex-chat", dependencies: ["SimpleXTerminal", "SimpleXSystem"], path: "Sources/simplex-chat"),
        .target(
            name: "SimpleXRelay", dependencies: ["SimpleXProtocol", "SimpleXCrypto", "SimpleXSystem", "SimpleXNetwork"],
            path: "Sources/SimpleXRelay"),
        .executableTarget(
            name: "smp-server", dependencies: ["SimpleXRelay", "SimpleXSystem"], path: "Sources/smp-server"),
        .target(
            name: "SimpleXNotificationService", dependencies: ["SimpleXChat", "SimpleXDesktop", "SimpleXSystem"],
            path: "Services/NotificationService/Library"),
        .executableTarget(
            name: "simplex-nse", dependencies: ["SimpleXNotificationService", "SimpleXSystem"],
            path: "Services/NotificationService/simplex-nse"),

        .target(
            name: "SimpleXShareService", dependencies: ["SimpleXChat", "SimpleXDesktop", "SimpleXSystem"],
            path: "Services/ShareService/Library"),
        .executableTarget(
            name: "simplex-share", dependencies: ["SimpleXShareService", "SimpleXSystem"],
            path: "Services/ShareService/simplex-share"),

        // Tests, the helper process they drive, and the benchmarks.
        .target(
            name: "TestSupport", dependencies: ["SimpleXDesktop", "SimpleXRelay", "SimpleXProtocol", "SimpleXCrypto"],
            path: "Tests/TestSupport"),
        .executableTarget(
            name: "simplex-test-peer",
            dependencies: ["SimpleXChat", "SimpleXDesktop", "SimpleXRelay", "SimpleXProtocol", "SimpleXSystem", "SimpleXCrypto"],
            path: "Tests/TestPeer"),
        .target(name: "CBench", dependencies: ["CSodium"], path: "Tests/CBench"),
        .executableTarget(
            name: "simplex-bench",
            dependencies: [
                "SimpleXCrypto", "SimpleXProtocol", "SimpleXSystem", "SimpleXNetwork", "SimpleXChat", "SimpleXDesktop",
                "SimpleXRelay", "SimpleXTUI", "CBench", "CSQLite",
                "TestSupport",
            ],
            path: "Tests/Benchmarks"),
        .testTarget(name: "SimpleXCryptoTests", dependencies: ["SimpleXCrypto"]),
        .testTarget(name: "SimpleXProtocolTests", dependencies: ["SimpleXProtocol", "SimpleXCrypto"]),
        .testTarget(name: "SimpleXSystemTests", dependencies: ["SimpleXSystem", "TestSupport"]),
        .testTarget(name: "SimpleXNetworkTests", dependencies: ["SimpleXNetwork", "SimpleXSystem", "TestSupport"]),
        .testTarget(
            name: "SimpleXChatTests", dependencies: ["SimpleXChat", "SimpleXSystem", "SimpleXNetwork", "TestSupport"]),
        .testTarget(
            name: "SimpleXRelayTests",
            dependencies: ["SimpleXRelay", "SimpleXProtocol", "SimpleXCrypto", "SimpleXSystem", "TestSupport"]),
        .testTarget(name: "SimpleXTerminalTests", dependencies: ["SimpleXTerminal", "TestSupport"]),
        .testTarget(name: "SimpleXTUITests", dependencies: ["SimpleXTUI", "SimpleXChat", "TestSupport"]),
        .testTarget(
            name: "SimpleXNotificationServiceTests",
            dependencies: ["SimpleXNotificationService", "SimpleXDesktop", "SimpleXChat", "SimpleXCrypto", "TestSupport"]),
        .testTarget(
            name: "SimpleXShareServiceTests",
            dependencies: ["SimpleXShareService", "SimpleXDesktop", "SimpleXChat", "SimpleXCrypto", "TestSupport"]),
        .testTarget(
            name: "SimpleXDesktopTests",
            dependencies: ["SimpleXDesktop", "SimpleXChat", "SimpleXCrypto", "TestSupport"]),
    ]
)
