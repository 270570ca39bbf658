import Foundation
import LifelineCore

/// The follow loop of `lifeline watch`: reads its sources as they grow, feeds a `LiveAnalysis`, and
/// hands each step's output to `show`, until every input ended (streams at their end; files at
/// theirs with `follow` off) or `stop` says so. It prints nothing: the caller shows the output,
/// draws a status line and writes report files (`round`).
///
/// Timing decides when findings are reported, never what is read: a multi-line record is closed
/// early (`LiveSource.idle`) only when its source is caught up and `idle` seconds pass without
/// input, never while the reader is behind a file, so a file read with `follow` off gives the same
/// events however slowly the loop runs.
public final class LiveRun {
    public struct Options: Sendable {
        /// Seconds without input after which an open record is complete (`--idle-ms`).
        public var idle: Double
        /// Wait for files to grow (false: read each to its end and stop, `--no-follow`).
        public var follow: Bool
        /// Bytes read from a followed file per round at most.
        public var readLimit = 1 << 20

        public init(idle: Double = 0.1, follow: Bool = true) {
            self.idle = idle
            self.follow = follow
        }
    }

    public private(set) var sources: [LiveSource]
    public private(set) var analysis: LiveAnalysis
    private let options: Options
    private let clock: () -> Double

    /// `clock`: monotonic seconds, for the idle time and the online checks' share (the sources
    /// should use the same one).
    public init(sources: [LiveSource], analysis: LiveAnalysis, options: Options,
                clock: @escaping () -> Double = LiveAnalysis.monotonic) {
        self.sources = sources
        self.analysis = analysis
        self.options = options
        self.clock = clock
    }

    /// The accounting of every input so far (readings that ended, and those still going).
    public var inputs: [InputStats] { sources.flatMap { $0.finishedStats + ($0.ended ? [] : [$0.reader.stats]) } }
    /// The accounting of the readings that ended (every one, once `run` returned).
    public var finishedInputs: [InputStats] { sources.flatMap(\.finishedStats) }
    /// Lines read so far.
    public var lines: Int { sources.reduce(0) { $0 + $1.reader.lines } }

    /// Runs until every input ended or `stop()`, then ends every input and session. `show` gets
    /// each step's output (the manifest's findings first), `touched` is called for each event (the
    /// live sessions changed), `round` after each round of reads and checks.
    public func run(stop: () -> Bool, show: (LiveAnalysis.Output) -> Void, touched: () -> Void = {},
                    round: () throws -> Void = {}) rethrows {
        show(analysis.start())
        func take(_ e: Event) {
            touched()
            show(analysis.add(e))
        }
        let idle = options.idle
        // Bytes read from followed files in the last round: while a file has more, the next round
        // does not wait (a 1 MiB read per 50 ms wait read a 250 MB file in 13 s instead of 1.3 s).
        var fileBytes = 0
        while !stop() {
            let streams = sources.compactMap(\.pollDescriptor)
            let following = sources.contains { $0.followsFile && !$0.ended }
            if streams.isEmpty && !following { break }
            // Wake for input, for the next idle deadline, and every 50 ms to look at followed files.
            var wait = fileBytes > 0 ? 0 : following ? 0.05 : 1.0
            for s in sources where !s.idled { wait = min(wait, max(0, s.lastData + idle - clock())) }
            var fds = streams.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), Int32((wait * 1000).rounded(.up)))
            let ready = Set(fds.filter { $0.revents != 0 }.map(\.fd))
            var got = 0
            fileBytes = 0
            // A followed file is first checked for rotation, truncation or an overwrite (before its
            // new bytes are read, which may be the end of new content); a stream is read only
            // when poll says so (a read would block), files whenever.
            for s in sources where s.followsFile { s.checkRotation(event: take) }
            for s in sources where s.followsFile || s.pollDescriptor.map(ready.contains) == true {
                let n = s.read(limit: options.readLimit, event: take)
                    got += n
                if s.followsFile { fileBytes += n }
            }
            let now = clock()
            // While input flows, live sessions are checked as often as their size allows; when it
            // pauses, all of them.
            // Input that does not fill a read (it arrives slower than it is read) leaves time for
            // checks; a full read means the reader is behind, and checks keep to a tenth.
            let saturated = got >= LiveSource.readSize
            show(analysis.checkLive(now: now, share: saturated ? LiveAnalysis.checkShare : LiveAnalysis.idleCheckShare))
            for s in sources where !s.idled && s.caughtUp && now - s.lastData >= idle {
                s.idle(event: take)
                    show(analysis.checkLive())
            }
            for s in sources where s.followsFile && !options.follow && got == 0 && s.idled {
                s.finish(event: take)
                }
            try round()
        }
        for s in sources {
            s.finish(event: take)
        }
        show(analysis.finish())
    }
}
