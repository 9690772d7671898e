@testable import FerryCanonical
@testable import FerryConvert
import Testing

/// The filter in front of the claimed-id ledger may say "maybe" for an id it never saw (a
/// query then answers), but never "no" for one it saw: that would let a duplicate id through.
@Suite struct ClaimFilterTests {
    /// Ids as a conversion meets them: random (version 4) UUIDs, and runs of similar ones.
    func ids(_ count: Int, seed: UInt64) -> [(UInt64, UInt64)] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        return (0..<count).map { index in
            index % 2 == 0 ? (next(), next()) : (0x3F2A_0C1E_1111_4222, 0x8333_0000_0000_0000 | UInt64(index))
        }
    }

    @Test func everyIdItKeptIsAMaybeAndFewOthersAre() {
        var filter = ClaimFilter()
        let kept = ids(200_000, seed: 1)
        for (high, low) in kept { filter.insert(table: "log", high: high, low: low) }
        #expect(kept.allSatisfy { filter.mayContain(table: "log", high: $0.0, low: $0.1) })

        let others = ids(200_000, seed: 2).map { ($0.0 ^ 0xFFFF, $0.1) }
        let falseMaybes = others.filter { filter.mayContain(table: "log", high: $0.0, low: $0.1) }.count
        #expect(falseMaybes < 200, "\(falseMaybes) of 200,000 unseen ids")
        let otherTable = kept.filter { filter.mayContain(table: "recipe", high: $0.0, low: $0.1) }.count
        #expect(otherTable < 200, "an id claimed for logs is no claim for recipes: \(otherTable)")
    }
}
