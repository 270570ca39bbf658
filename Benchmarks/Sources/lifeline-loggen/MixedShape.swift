/// The mixed corpus (the default shape, and what `scripts/bench` has always measured): segments of
/// 5,000-20,000 lines rotating through the five text formats, ~95% noise, seven apps walking a legal
/// state machine, assertions, exceptions and Main Thread Checker reports (`Generator`). Its bytes and
/// its `.expected.json` are those the generator wrote before shapes existed, so its version is the
/// generator's.
final class MixedShape: CorpusShape {
    static let name = "mixed"
    static var version: String { generatorVersion }
    static let summary = """
        mixed (default): segments of 5,000-20,000 lines rotating through xcode, log-default,
                         log-compact, log-syslog, idevicesyslog (or one format, --format); ~5% of
                         lines from seven apps walking a legal lifecycle (Generator.swift);
                         SpringBoard/RunningBoard lines tell other apps' system stories
        """
    static let takesMixedOptions = true

    private let gen: Generator
    private let sink: Sink
    private let options: ShapeOptions

    init(out: Sink, seed: UInt64, options: ShapeOptions) {
        sink = out
        self.options = options
        gen = Generator(out: out, seed: seed, appPerMille: options.appPerMille)
        // SpringBoard's and RunningBoard's lines tell the stories of apps that log nothing themselves
        // (`--app-per-mille 0` writes noise only: no stories either).
        guard options.appPerMille > 0 else { return }
        let d = gen.daemons
        let echoes = [2, 3, 5, 8, 9, 13, 14, 15, 16].map { d[$0] }  // backboardd … UserEventAgent
        var config = SystemWorld.Config()
        config.newSessionPerMille = 300
        config.userDelay = 400...5_000
        let world = SystemWorld(gen: gen, seed: seed, config: config, catalog: SystemCatalog.silentApps()) { _ in (d[0], d[1], d[7], echoes) }
        let g = gen
        world.interleave = { g.noiseItem() }
        gen.world = world
    }

    func run(targetBytes: Int) { gen.run(targetBytes: targetBytes, single: options.single) }
    var counts: [Int] { gen.counts }
    var endSeconds: Int { gen.endSeconds }

    func expectedFields(seed: UInt64) -> [(String, String)] {
        [
            ("seed", "\(seed)"),
            ("format", "\"\(options.formatName)\""),
            ("appPerMille", "\(options.appPerMille)"),
            ("appLines", "\(gen.appLines)"),
            ("segments", segmentsJSON(lines: gen.linesByFormat, segments: gen.segmentsByFormat)),
        ] + (gen.world.map { [("system", $0.statsJSON(indent: "  "))] } ?? [])
    }
}
