// swift-tools-version:6.0
// The benchmark corpus generator lives in its own package so the main package stays lean
// (as apple/swift-log does with its Benchmarks/ package). No dependencies.
import PackageDescription

let package = Package(
    name: "LifelineBenchmarks",
    products: [
        .executable(name: "lifeline-loggen", targets: ["lifeline-loggen"]),
    ],
    targets: [
        .executableTarget(
            name: "lifeline-loggen",
            swiftSettings: [
                // The generator appends bytes to one buffer owned by a class; dynamic
                // exclusivity checks on every append cost about a third of its speed.
                .unsafeFlags(["-enforce-exclusivity=unchecked"]),
            ]),
    ]
)
