import CLifelineScan

extension StringProtocol {
    /// Whether `needle` occurs in the text, compared byte for byte in UTF-8. On Linux, Foundation's
    /// `contains(_:)` goes through NSString and costs more than the rule that asks.
    public func includes(_ needle: String) -> Bool {
        var needle = needle
        return needle.withUTF8 { n in
            guard n.count > 0 else { return true }
            func search(_ h: UnsafeBufferPointer<UInt8>) -> Bool {
                h.count >= n.count && ll_find_bytes(h.baseAddress, h.count, n.baseAddress, n.count) >= 0
            }
            if let found = utf8.withContiguousStorageIfAvailable(search) { return found }
            var copy = String(self)
            return copy.withUTF8(search)
        }
    }
}
