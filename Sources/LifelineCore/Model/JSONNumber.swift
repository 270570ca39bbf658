import Foundation

/// Numbers as `JSONSerialization` hands them over, read exactly.
public enum JSONNumber {
    /// The `Double` a JSON number's text stands for. swift-corelibs-foundation gives a number with
    /// many digits (`1737382773.9338703`) as an `NSDecimalNumber`, whose `doubleValue` is not the
    /// nearest double (…3387**08**); its text, read by Swift's correctly rounded parser, is. Found
    /// by the `partial` fuzz campaign: a partial triage result's times did not survive being written
    /// and read back.
    public static func double(_ any: Any?) -> Double? {
        switch any {
        case let d as NSDecimalNumber: return Double(d.description) ?? d.doubleValue
        case let n as NSNumber: return n.doubleValue
        default: return nil
        }
    }
}
