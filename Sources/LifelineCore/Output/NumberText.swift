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

    /// `2.62 GiB`, `420 MiB`, `96 KiB` (binary units, as the system's reports count memory, named so).
    public static func bytes(_ n: Int) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(n)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(n) bytes" }
        return value >= 100 ? "\(Int(value.rounded())) \(units[unit])" : "\((value * 100).rounded() / 100) \(units[unit])"
    }
}
