import Testing

@testable import SystemTLS

/// Masking keys come from each thread's store of CSPRNG output (`SecureRandom.maskingKey`): what a
/// client frame needs is a fresh, unpredictable key each time, across the store's refills and threads.
@Suite struct SecureRandomTests {
    /// 2,000 keys span several refills of the 256-key store; among 2,000 random 32-bit values a repeat
    /// is a one-in-two-thousand event, and a store handing a key out twice (or zeros) repeats hundreds.
    @Test func maskingKeysDoNotRepeatAcrossRefills() {
        let keys = (0..<2_000).map { _ in SecureRandom.maskingKey() }
        #expect(Set(keys).count >= 1_998)
        #expect(keys.filter { $0 == 0 }.count <= 1)
    }

    /// Two threads draw from stores of their own: their keys are not the same sequence.
    @Test func threadsDrawDifferentKeys() async {
        async let first = Task.detached { (0..<300).map { _ in SecureRandom.maskingKey() } }.value
        async let second = Task.detached { (0..<300).map { _ in SecureRandom.maskingKey() } }.value
        let (a, b) = await (first, second)
        #expect(Set(a).intersection(b).count <= 1)
        #expect(a != b)
    }
}
