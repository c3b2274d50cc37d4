// swift-tools-version:6.0
//
// A yardstick, not a product (Loadtest/peers/README.md): the least CPU a server on SwiftNIO spends to
// deliver a message to one of many loopback connections.
import PackageDescription

let package = Package(
    name: "nio-floor",
    dependencies: [.package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2")],
    targets: [
        .executableTarget(
            name: "nio-floor",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ])
    ]
)
