// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Lifeline",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "lifeline", targets: ["lifeline"]),
        .library(name: "LifelineCore", targets: ["LifelineCore"]),
        .library(name: "LifelineRules", targets: ["LifelineRules"]),
        .library(name: "LifelinePipeline", targets: ["LifelinePipeline"]),
        .library(name: "LifelineRender", targets: ["LifelineRender"]),
        .library(name: "LifelineTriage", targets: ["LifelineTriage"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `.lifeline.yml`: keeps node positions, so configuration errors name their line.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // The tests build `.ipa` files (zip archives) with it; Lifeline reads them through libzip.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        // System libraries, found with pkg-config; scripts/bootstrap installs them.
        .systemLibrary(
            name: "CPCRE2", pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]),
        .systemLibrary(
            name: "CGraphviz", pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]),
        .systemLibrary(
            name: "CLifelineZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // `.ipa` files (zip archives) for `lifeline manifest`: the Info.plist inside Payload/*.app.
        // libzip, not ZIPFoundation: ZIPFoundation's inflate loop on Linux never ends on a deflate
        // stream cut short (Documentation/Reliability.md).
        .systemLibrary(
            name: "CLibzip", pkgConfig: "libzip",
            providers: [.apt(["libzip-dev"]), .brew(["libzip"])]),
        // The SIMD literal prefilter of the hot path.
        .target(name: "CLifelineScan"),
        // Reads DOT text into Graphviz with ids in text order, so that a layout never depends on the heap.
        .target(name: "CLifelineDOT", dependencies: ["CGraphviz"]),

        .target(name: "LifelineCore", dependencies: ["CPCRE2", "CLifelineZlib", "CLibzip", "CLifelineScan"]),
        .target(name: "LifelineRules", dependencies: ["LifelineCore", .product(name: "Yams", package: "Yams")]),
        // The one session pipeline: ingest → sessions as they end → the check stage, for one file, many
        // files merged by time, a file read in ranges, and live input (`watch`'s follow loop).
        .target(name: "LifelinePipeline", dependencies: ["LifelineCore", "LifelineRules"]),
        // Batch runs over many inputs: per-file analysis on every core, failure signatures, ranking.
        .target(name: "LifelineTriage", dependencies: ["LifelineCore", "LifelineRules", "LifelinePipeline"]),
        // The last stage: diagrams (DOT, rendered in process by Graphviz) and report files (the one
        // writer of the output folder).
        .target(name: "LifelineRender", dependencies: ["CGraphviz", "CLifelineDOT", "LifelineCore", "LifelineRules", "LifelinePipeline", "LifelineTriage"]),
        .executableTarget(
            name: "lifeline",
            dependencies: [
                "LifelineCore", "LifelineRules", "LifelinePipeline", "LifelineRender", "LifelineTriage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // What every test target shares: where the repository, its fixtures and the shared corpus
        // are, the traits that skip corpus tests and the suites scripts/test runs as steps of
        // their own, and a seeded generator for generated inputs.
        .target(name: "TestSupport", dependencies: ["LifelineCore", "LifelineRules"], path: "Tests/Support"),
        .testTarget(name: "LifelineCoreTests", dependencies: ["LifelineCore", "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
                    exclude: ["Fixtures"]),
        .testTarget(name: "LifelineRulesTests", dependencies: ["LifelineRules", "LifelinePipeline", "LifelineCore", "TestSupport"]),
        .testTarget(name: "LifelinePipelineTests", dependencies: ["LifelinePipeline", "LifelineRules", "LifelineCore", "TestSupport"]),
        .testTarget(name: "LifelineRenderTests", dependencies: ["LifelineRender", "LifelinePipeline", "LifelineRules", "LifelineCore", "TestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "LifelineTriageTests", dependencies: ["LifelineTriage", "LifelineRules", "LifelineCore", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "CLITests", dependencies: ["LifelineCore", "TestSupport"]),
    ]
)
