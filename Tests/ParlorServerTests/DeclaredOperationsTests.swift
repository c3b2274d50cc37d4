import NIOHTTP1
import ParlorWire
import Testing
@testable import ParlorServer

/// The server answers exactly what the wire declares (`WireVocabulary.all`): every declared operation
/// is in its table with the declared access, every declared callable function is callable, and every
/// declared REST route is served with the declared method — and nothing undeclared is answered.
@Suite struct DeclaredOperationsTests {
    @Test func theTableAnswersEveryDeclaredOperationAndNothingElse() async throws {
        try await withParlor { harness in
            let services = harness.services
            let declared = WireVocabulary.operations
            #expect(services.operations.names == Set(declared.map(\.name)))
            for operation in declared {
                let everyoneMay = declared.filter { $0.name == operation.name }.allSatisfy { $0.access == .anyone }
                #expect(services.operations.access(of: operation.name) == (everyoneMay ? .anyone : .signedIn), "\(operation.name)")
                #expect((services.callable.choice(for: operation.name) != nil) == operation.callable, "\(operation.name)")
                for route in operation.routes {
                    let path = route.path.split(separator: "/").map { $0.hasPrefix("{") ? "x" : String($0) }
                    let served = services.routes.filter { $0.method == HTTPMethod(rawValue: route.method) && $0.match(path) != nil }
                    #expect(served.count == 1, "\(route.method) \(route.path) for \(operation.name)")
                    #expect(served.first?.status.code == UInt(route.status), "\(route.method) \(route.path)")
                    #expect(served.first?.access == operation.access, "\(route.method) \(route.path)")
                }
            }
        }
    }
}
