/// SplitMix64 (Steele, Lea & Flood 2014): tiny, fast, and the same sequence on every platform
/// and Swift version, which `SystemRandomNumberGenerator` is not. Same seed, same bytes.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    @inline(__always)
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<n (n < 2^32), by multiply-shift (no division, negligible bias).
    @inline(__always)
    mutating func below(_ n: Int) -> Int {
        Int(truncatingIfNeeded: ((next() >> 32) &* UInt64(truncatingIfNeeded: n)) >> 32)
    }

    /// Uniform in lo...hi.
    @inline(__always)
    mutating func range(_ lo: Int, _ hi: Int) -> Int { lo + below(hi - lo + 1) }

    /// True with probability `perMille`/1000.
    @inline(__always)
    mutating func chance(_ perMille: Int) -> Bool { below(1000) < perMille }

    @inline(__always)
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Picks an index by integer weights.
struct Weighted {
    private let cumulative: [Int]
    let total: Int

    init(_ weights: [Int]) {
        var sum = 0
        cumulative = weights.map { sum += $0; return sum }
        total = sum
    }

    @inline(__always)
    func pick(_ rng: inout SplitMix64) -> Int {
        let r = rng.below(total)
        var i = 0
        while cumulative[i] <= r { i += 1 }
        return i
    }
}
