// swift-tools-version:6.0
// The benchmark corpus generator lives in its own package so the main package stays lean
// (as apple/swift-log does with its Benchmarks/ package). No package dependencies; zlib (a system
// library, which scripts/bootstrap installs for Lifeline itself) writes the triage set's .gz files.
import PackageDescription

let package = Package(
    name: "LifelineBenchmarks",
    products: [
        .executable(name: "lifeline-loggen", targets: ["lifeline-loggen"]),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .executableTarget(
            name: "lifeline-loggen",
            dependencies: ["CZlib"],
            swiftSettings: [
                // The generator appends bytes to one buffer owned by a class; dynamic
                // exclusivity checks on every append cost about a third of its speed.
                .unsafeFlags(["-enforce-exclusivity=unchecked"]),
            ]),
    ]
)
