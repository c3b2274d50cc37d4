// swift-tools-version:6.2
//
// libFuzzer targets for Parlor's parsers, a package of their own so that the root package's
// `swift build` and `swift test` never meet them: they link only with clang's fuzzer runtime.
// Build and run them with `scripts/fuzz.sh` (it passes `--sanitize fuzzer --sanitize address` and
// `-enable-testing`, which the targets' `@testable import`s need); see docs/CONFORMANCE.md, "Fuzzing".
//
// The targets reach internal types with `@testable import` rather than through a public or SPI surface
// made for them: nothing in the product changes shape for the fuzzers' sake. The reference inflations
// call zlib through WebSocketCore's own `CZlib` module, which SwiftPM makes visible to every target
// that depends on WebSocketCore.
import PackageDescription

let nio: PackageDescription.Target.Dependency = .product(name: "NIOCore", package: "swift-nio")
let nioHTTP1: PackageDescription.Target.Dependency = .product(name: "NIOHTTP1", package: "swift-nio")
let nioEmbedded: PackageDescription.Target.Dependency = .product(name: "NIOEmbedded", package: "swift-nio")
let webSocketCore: PackageDescription.Target.Dependency = .product(name: "WebSocketCore", package: "Parlor")
let parlorWire: PackageDescription.Target.Dependency = .product(name: "ParlorWire", package: "Parlor")
let parlorMedia: PackageDescription.Target.Dependency = .product(name: "ParlorMedia", package: "Parlor")
let parlorAuth: PackageDescription.Target.Dependency = .product(name: "ParlorAuth", package: "Parlor")

let package = Package(
    name: "ParlorFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Parlor", path: "../.."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // Reading choices off the front of an input, and failing loudly when an invariant breaks.
        .target(name: "FuzzSupport"),
        // zlib driven directly, unlimited: what the product's inflation is compared against.
        .target(name: "ZlibReference", dependencies: [webSocketCore]),
        // WebSocketFrameDecoder and WebSocketConnectionStateMachine fed raw bytes, either role.
        .executableTarget(name: "fuzz-frames", dependencies: ["FuzzSupport", "ZlibReference", webSocketCore, nio]),
        // The server's HTTP pipeline up to and through the WebSocket upgrade, on an EmbeddedChannel.
        .executableTarget(name: "fuzz-http", dependencies: ["FuzzSupport", webSocketCore, nio, nioHTTP1, nioEmbedded]),
        // Request frames and callable bodies read as the server reads them.
        .executableTarget(name: "fuzz-envelope", dependencies: ["FuzzSupport", parlorWire]),
        // permessage-deflate inflation with its size limit, against zlib used directly.
        .executableTarget(name: "fuzz-inflate", dependencies: ["FuzzSupport", "ZlibReference", webSocketCore, nio]),
        // Uploaded images: format sniffing, the JPEG segment walk, EXIF, and stripping metadata.
        .executableTarget(name: "fuzz-media", dependencies: ["FuzzSupport", parlorMedia]),
        // External JWTs (`hello {jwt}`, a bearer token) checked against static keys of every kind, by OpenSSL.
        .executableTarget(name: "fuzz-jwt", dependencies: ["FuzzSupport", parlorAuth]),
    ]
)
