/// Numbers as reports print them, the same in every locale.
public enum NumberText {
    /// `1234567` as `1,234,567`.
    public static func grouped<I: BinaryInteger>(_ n: I) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}
