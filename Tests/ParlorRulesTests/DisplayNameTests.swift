import Testing
@testable import ParlorRules

@Suite struct DisplayNameTests {
    @Test func trimsAndCountsCharacters() {
        #expect(DisplayName.validate("  Bo \n", maxCharacters: 50) == .success("Bo"))
        let family = String(repeating: "👩‍👩‍👧", count: 50)
        #expect(DisplayName.validate(family, maxCharacters: 50) == .success(family))
        #expect(DisplayName.validate(String(repeating: "é", count: 50), maxCharacters: 50).isSuccess)
    }

    @Test func rejectsEmptyLongAndControl() {
        #expect(DisplayName.validate("   ", maxCharacters: 50) == .failure(.empty))
        #expect(DisplayName.validate(String(repeating: "x", count: 51), maxCharacters: 50) == .failure(.tooLong(count: 51, limit: 50)))
        #expect(DisplayName.validate("Bo\u{0007}", maxCharacters: 50) == .failure(.forbiddenCharacter))
        #expect(DisplayName.validate("B\no", maxCharacters: 50) == .failure(.forbiddenCharacter))
        #expect(DisplayName.validate("Bo\u{202E}", maxCharacters: 50) == .failure(.forbiddenCharacter))
    }
}

extension Result {
    var isSuccess: Bool { if case .success = self { true } else { false } }
}
