extension Int {
    /// `value` rounded to the nearest whole number, or nil when it is not finite or does not fit
    /// in an `Int`. `Int(_: Double)` traps there, and a report's numbers are the input's: the
    /// `ingest-auto` fuzz target's campaign found `Duration: 99999999999999999999 s` in a resource
    /// report stopping Lifeline.
    init?(rounding value: Double) {
        let r = value.rounded()
        guard r.isFinite, r >= -0x1p63, r < 0x1p63 else { return nil }
        self.init(r)
    }
}
