import Foundation
import ParlorTestSupport
import Testing

/// `scripts/check-closures.py` against a package that reproduces the compiler bug it looks for: inside
/// a closure, a closure written after an `#expect` whose argument holds a closure runs that closure's
/// body (Swift 6.3.1). The package's test prints what the later closure returned; the check must
/// report exactly the closures that were mixed up — none if the compiler kept them apart — and never
/// the same lines written directly in a function, which the compiler numbers correctly.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct ClosureCheckTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static let manifest = """
        // swift-tools-version:6.0
        import PackageDescription
        let package = Package(name: "Repro", targets: [.testTarget(name: "ReproTests")])
        """

    /// Line 9 writes `find { $0 == 4 }` after line 8's `#expect`, inside `with`'s closure; lines 14–15
    /// are the same two lines directly in a function.
    static let tests = """
        import Testing

        func find(_ predicate: (Int) -> Bool) -> Int? { (0..<20).first(where: predicate) }
        func with(_ body: (Int) async throws -> Void) async throws { try await body(1) }

        @Test func insideAClosure() async throws {
            try await with { _ in
                #expect(find { $0 == 3 } == 3)
                let later = find { $0 == 4 }
                print("inside a closure: \\(later ?? -1)")
            }
        }
        @Test func inAFunction() {
            #expect(find { $0 == 3 } == 3)
            let later = find { $0 == 4 }
            print("in a function: \\(later ?? -1)")
        }
        """

    @Test func theCheckReportsTheClosuresTheCompilerMixedUpAndNoOthers() async throws {
        let package = NSTemporaryDirectory() + "parlor-closures-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: package) }
        try FileManager.default.createDirectory(atPath: package + "/Tests/ReproTests", withIntermediateDirectories: true)
        try Self.manifest.write(toFile: package + "/Package.swift", atomically: true, encoding: .utf8)
        try Self.tests.write(toFile: package + "/Tests/ReproTests/Repro.swift", atomically: true, encoding: .utf8)

        let built = try await ExternalProcess.run(["swift", "build", "--build-tests"], directory: package, timeout: .seconds(300))
        try #require(built.status == 0, "\(built.stdout)\(built.stderr)")
        let ran = try await ExternalProcess.run(["swift", "test", "--skip-build"], directory: package, timeout: .seconds(120))
        let output = ran.stdout + ran.stderr
        // Written directly in a function, the later closure is its own.
        #expect(output.contains("in a function: 4"), "\(output)")
        let mixedUp = output.contains("inside a closure: 3")
        #expect(mixedUp || output.contains("inside a closure: 4"), "\(output)")

        let checked = try await ExternalProcess.run(
            ["python3", Self.root + "/scripts/check-closures.py", "--package-path", package], directory: Self.root, timeout: .seconds(300))
        let report = checked.stdout + checked.stderr
        #expect(report.contains("1 modules"), "\(report)")
        if mixedUp {
            #expect(checked.status == 1, "\(report)")
            #expect(report.contains("Tests/ReproTests/Repro.swift:9:") && report.contains("the #expect at line 8"), "\(report)")
            #expect(report.contains("1 closure(s) compiled to another closure's body"), "\(report)")
        } else {
            // A compiler that keeps the two apart: nothing to report (and the check may go, see its header).
            #expect(checked.status == 0, "\(report)")
        }
        #expect(!report.contains("Repro.swift:15:"), "\(report)")
    }
}
