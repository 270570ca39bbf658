import Foundation
import Testing
import TestSupport
@testable import LifelineCore
@testable import LifelineTriage

/// Inputs the `partial` fuzz target found (`Fixtures/partial/`, also its seeds).
@Suite struct PartialFuzzRegressionTests {
    static let fixtures = Repository.tests("LifelineTriageTests", "Fixtures/partial")

    static var files: [String] { Repository.fileNames(in: fixtures) }

    /// `round-trip`: a time's `seconds` of 17 digits came back from `JSONSerialization` as an
    /// `NSDecimalNumber`, whose `doubleValue` is not the nearest double, so a partial written and
    /// read back wrote a different time. Each fixture that reads writes itself back unchanged.
    @Test("regression (fuzz partial): a partial read, written and read again writes the same text", arguments: files)
    func roundTrip(_ name: String) throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
        guard let partial = try? TriagePartial(json: data, name: name) else { return }
        let text = partial.json()
        let again = try TriagePartial(json: Data(text.utf8), name: "again.json")
        #expect(again.json() == text)
    }

    @Test("JSON numbers with many digits read as the nearest double", arguments: [
        "1737382773.9338703", "17373827739.338703", "0.1", "1e-7", "123456789012345678901234567890", "-2.5",
    ])
    func exactNumbers(_ text: String) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8)) as? [Any])
        #expect(JSONNumber.double(object[0]) == Double(text))
    }
}
