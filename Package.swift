// swift-tools-version:6.2
//
// Parlor: a real-time WebSocket game-room server.
//
// Module graph (arrows point one way only; see docs/ARCHITECTURE.md):
//
//   parlor-server → ParlorServer → ParlorWire → ParlorRules
//                   ParlorServer → PostgresNIO (only with the PostgreSQL trait: the clustered store)
//                   ParlorServer → ParlorMedia (image files: avatars)
//                   ParlorServer → ParlorSQLite → CSQLite (SQLite: the default store)
//                   ParlorServer → CMalloc (the C library's allocator: heap usage, giving memory back)
//                   ParlorServer → WebSocketCore → SystemTLS → CSystemTLS (OpenSSL)
//                                  WebSocketCore → CZlib (zlib)
//                   ParlorServer → ParlorMedia → CTurboJPEG (libjpeg-turbo), ParlorRules (PhotoDate); ParlorServer → ParlorPlaces
//                   ParlorServer → ParlorWeb (the browser client's files, Clients/Web/Site)
//   parlor (Clients/parlor)   → ParlorTerminal → ParlorClient → ParlorWire, WebSocketCore; ParlorTerminal → ParlorPlaces
//   parlor-load (Loadtest)    → ParlorLoad → ParlorWire, WebSocketCore, ParlorPlaces
//
// Clients and the load generator never import ParlorServer; WebSocketCore imports no Parlor module.
import PackageDescription

let nio: PackageDescription.Target.Dependency = .product(name: "NIOCore", package: "swift-nio")
let nioPosix: PackageDescription.Target.Dependency = .product(name: "NIOPosix", package: "swift-nio")
let nioHTTP1: PackageDescription.Target.Dependency = .product(name: "NIOHTTP1", package: "swift-nio")
let nioConcurrencyHelpers: PackageDescription.Target.Dependency = .product(
    name: "NIOConcurrencyHelpers", package: "swift-nio")
let nioEmbedded: PackageDescription.Target.Dependency = .product(name: "NIOEmbedded", package: "swift-nio")
let logging: PackageDescription.Target.Dependency = .product(name: "Logging", package: "swift-log")
let argumentParser: PackageDescription.Target.Dependency = .product(
    name: "ArgumentParser", package: "swift-argument-parser")

let package = Package(
    name: "Parlor",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "parlor-server", targets: ["parlor-server"]),
        .executable(name: "parlor", targets: ["parlor"]),
        .executable(name: "parlor-load", targets: ["parlor-load"]),
        .library(name: "WebSocketCore", targets: ["WebSocketCore"]),
        .library(name: "ParlorClient", targets: ["ParlorClient"]),
        // For the fuzz targets (Tests/Fuzz, a package of their own), which read requests as the server does.
        .library(name: "ParlorWire", targets: ["ParlorWire"]),
        // For the media fuzz target, which reads uploads as the server will.
        .library(name: "ParlorMedia", targets: ["ParlorMedia"]),
        // For the jwt fuzz target, which checks external JWTs as the server's sign-in does.
        .library(name: "ParlorAuth", targets: ["ParlorAuth"]),
    ],
    // The clustered mode (`--postgres`: several nodes on one PostgreSQL database) is built only when
    // asked for: postgres-nio brings swift-nio-ssl and swift-crypto, two copies of BoringSSL, which are
    // most of a first build. `swift build -c release --traits PostgreSQL` builds a server with it;
    // scripts/test.sh and CI build the tests with it (docs/ARCHITECTURE.md, "Clustered mode").
    traits: [
        .trait(
            name: "PostgreSQL",
            description: "The PostgreSQL store and the clustered mode (--postgres), through postgres-nio."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // MARK: C shims over the system libraries

        .target(
            name: "CSystemTLS",
            path: "Sources/CSystemTLS",
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        .target(
            name: "CZlib",
            path: "Sources/CZlib",
            linkerSettings: [.linkedLibrary("z")]
        ),
        .target(
            name: "CTurboJPEG",
            path: "Sources/CTurboJPEG",
            linkerSettings: [.linkedLibrary("turbojpeg")]
        ),
        .target(name: "CMalloc", path: "Sources/CMalloc"),
        .target(
            name: "CSQLite",
            path: "Sources/CSQLite",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),

        // MARK: Transport

        .target(
            name: "SystemTLS",
            dependencies: ["CSystemTLS", nio]
        ),
        .target(
            name: "WebSocketCore",
            dependencies: ["SystemTLS", "CZlib", nio, nioPosix, nioHTTP1, nioConcurrencyHelpers, logging]
        ),

        // MARK: Games and the wire contract

        .target(name: "ParlorRules"),
        // Image files: format by signature, JPEG segments, EXIF and stripping without decoding a pixel;
        // decoding, turning upright, scaling and tiling photos through libjpeg-turbo.
        .target(name: "ParlorMedia", dependencies: ["CTurboJPEG", "ParlorRules"]),
        .target(name: "ParlorWire", dependencies: ["ParlorRules"]),
        // GeoNames' populated places: the nearest to a position (a k-d tree on the sphere), places by name.
        .target(name: "ParlorPlaces", dependencies: ["ParlorRules"]),

        // MARK: The server

        // The default store's database: SQLite's C API as connections, statements, a WAL pool of one
        // writer and several readers, and numbered migrations. Small on purpose (docs/ARCHITECTURE.md).
        .target(name: "ParlorSQLite", dependencies: ["CSQLite"]),

        // Verifying external JWTs (RFC 7515/7517/7519) against configured issuers: their keys static or
        // fetched from a JWKS address, every signature checked by OpenSSL through SystemTLS. A module of
        // its own so the jwt fuzz target builds it alone, not the whole server.
        .target(name: "ParlorAuth", dependencies: ["ParlorRules", "ParlorWire", "WebSocketCore", "SystemTLS", nioHTTP1, logging]),
        .target(
            name: "ParlorServer",
            dependencies: [
                "ParlorWire", "ParlorRules", "ParlorMedia", "ParlorPlaces", "ParlorAuth", "ParlorSQLite", "WebSocketCore", "SystemTLS", "CMalloc", "ParlorWeb",
                nio, nioPosix, nioHTTP1, nioConcurrencyHelpers, logging,
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            ],
            resources: [.copy("Games/WordLobby/Catalog/starter-catalog.json")]
        ),
        .executableTarget(
            name: "parlor-server",
            dependencies: ["ParlorServer", "ParlorAuth", "ParlorWire", "WebSocketCore", nio, argumentParser, logging]
        ),

        // MARK: Clients

        .target(
            name: "ParlorClient",
            dependencies: [
                "ParlorRules", "ParlorWire", "WebSocketCore", "SystemTLS", nio, nioPosix, nioHTTP1, nioConcurrencyHelpers, logging,
            ],
            path: "Clients/ParlorClient"
        ),
        .target(
            name: "ParlorTerminal",
            dependencies: ["ParlorClient", "ParlorRules", "ParlorWire", "ParlorPlaces", argumentParser],
            path: "Clients/ParlorTerminal"
        ),
        // The browser client: HTML, CSS and JavaScript modules with no build step, served by parlor-server.
        .target(name: "ParlorWeb", path: "Clients/Web", resources: [.copy("Site")]),
        .executableTarget(
            name: "parlor",
            dependencies: ["ParlorTerminal"],
            path: "Clients/parlor"
        ),

        // MARK: Load generator

        .target(
            name: "ParlorLoad",
            dependencies: [
                "ParlorRules", "ParlorWire", "ParlorPlaces", "WebSocketCore", nio, nioPosix, nioConcurrencyHelpers, argumentParser,
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "Loadtest/ParlorLoad"
        ),
        .executableTarget(
            name: "parlor-load",
            dependencies: ["ParlorLoad"],
            path: "Loadtest/parlor-load"
        ),

        // MARK: Tests

        // Helpers shared by test targets: a throwaway PKI made with the openssl CLI, external processes,
        // waiting for a condition.
        .target(name: "ParlorTestSupport", dependencies: ["WebSocketCore", nio], path: "Tests/ParlorTestSupport"),
        .testTarget(name: "SystemTLSTests", dependencies: ["SystemTLS", "ParlorTestSupport", nio, nioPosix, nioEmbedded]),
        .testTarget(
            name: "WebSocketCoreTests",
            dependencies: ["WebSocketCore", "SystemTLS", "ParlorTestSupport", nio, nioPosix, nioHTTP1, nioEmbedded],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "ParlorRulesTests", dependencies: ["ParlorRules"]),
        .testTarget(name: "ParlorMediaTests", dependencies: ["ParlorMedia", "ParlorTestSupport"]),
        .testTarget(name: "ParlorPlacesTests", dependencies: ["ParlorPlaces", "ParlorRules"]),
        .testTarget(name: "ParlorWireTests", dependencies: ["ParlorRules", "ParlorWire"]),
        .testTarget(
            name: "ParlorServerTests", dependencies: ["ParlorServer", "ParlorAuth", "ParlorRules", "ParlorSQLite", "ParlorWire", "WebSocketCore", "ParlorTestSupport", "ParlorWeb"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "ParlorClientTests",
            dependencies: [
                "ParlorClient", "ParlorTerminal", "ParlorRules", "ParlorWire", "ParlorPlaces", "WebSocketCore", "ParlorTestSupport", nio,
                nioConcurrencyHelpers, argumentParser,
            ]),
        .testTarget(name: "ParlorLoadTests", dependencies: ["ParlorLoad"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ParlorClient", "ParlorWire", "ParlorPlaces", "WebSocketCore", "SystemTLS", "ParlorTestSupport", "parlor-server",
                "parlor", "parlor-load",
            ],
            resources: [.copy("Scripts")]
        ),
    ]
)
