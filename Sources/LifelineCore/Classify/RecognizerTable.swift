/// The recognizers in the order the classifier tries them: the first whose family the line's
/// triggers put up and whose pattern matches gives the event. Order matters where one line could
/// be read two ways; each group below says why it stands where it does. Adding a recognizer (or a
/// family: its file declares it) is one line here.
enum RecognizerTable {
    static let ordered: [Recognizer] = [
        // Threading reports first: a Main Thread Checker report names a background thread and an
        // API, and a completion that arrived off the main thread may quote a failure's words; both
        // are reports about threads, not the failures they mention.
        .mainThreadChecker,
        .offMainCompletion,
        // Kill lines before the process's own failures: RunningBoard's explanation quotes a watchdog
        // (`0x8badf00d`), launchd's a signal (`Killed: 9`); the line is the daemon's account of the
        // killed app (its subject), not a failure of the daemon.
        .killExited, .killTerminating, .killReported, .killMemorystatus, .killLaunchd, .killMemoryIssue, .killForcedReport,
        // The system's other lines about an app (launches, process and scene states, who a pid is),
        // before the process's own failures for the same reason as kill lines.
        .systemLaunchStep, .systemLaunchSuccess, .systemLaunchCause, .systemProcessState, .systemTaskState, .systemSceneState,
        .systemIdentity,
        // An assertion before the exception it raises: `*** Assertion failure in -[…]` is the
        // cause that an NSInternalInconsistencyException's reason repeats.
        .assertion,
        // Uncaught exceptions (with their banner, pasted without it, C++) before Swift traps: an
        // exception's reason may quote `Fatal error`.
        .uncaughtException, .bareException, .cxxTerminate,
        .swiftTrap, .oldSwiftTrap,
        // A caught, ignored exception only when the line is no fatal one.
        .ignoredException,
        // Terminations the process reports of itself: a watchdog line may also name its signal.
        .watchdog, .signal,
        // Main-thread requirements after the failures: an exception or assertion whose reason states
        // one stays the failure (the classifier adds a `thread.mainThreadRequired` companion).
        .mainThreadRequired, .backgroundPublish, .mainThreadIO,
        // UIKit configuration messages last: failures' reasons quote `UIScene` and scene delegates.
        .noConfiguration, .sceneDelegateProblem, .sceneLifecycleNotAdopted, .uikitClientBug,
    ]

    /// The order of the triggers in the prefilter. It decides how the SIMD search spreads their
    /// fingerprints over its buckets (its speed) and, where two triggers' windows meet at one place,
    /// which is found first: kept as measured. Triggers not listed follow, in table order.
    static let triggerOrder = [
        "Assertion| fail", "uncaught ex|ception", "|Terminating app", "Exception', r|eason: '", "Ignored Ex|ception",
        "F|atal error", "f|atal error", "Precondition| failed",
        "Main T|hread Checker", "main t|hread", "Main t|hread", "background t|hread",
        "watc|hdog", "8badf|00d", "8BADF|00D",
        "CLIENT OF |UIKIT", "|UIScene", "scene de|legate",
        "|Abort trap", "|Segmentation fault", "|Terminated due to signal", "BPT |trap", "|Bus error", "|Illegal instruction", "|Killed: ",
        "] Process e|xited: <", "] Terminating |with context: <RBS", "] termination |reported by launchd (", "memorystatus: kil|ling_",
        "(UIKitAppl|ication:", "Terminated due to memory |issue",
    ]

    static let compiled = CompiledRecognizers(ordered, triggerOrder: triggerOrder)
}

/// The table ready for the hot path: each recognizer's family as a bit, the distinct trigger
/// literals in one SIMD anchor set, and for each literal the families it puts up. Finding a line's
/// families allocates nothing.
final class CompiledRecognizers: Sendable {
    let recognizers: [Recognizer]
    /// Per recognizer: its family's bit, and the bits of the families it settles.
    let familyBits: [UInt64]
    let settleBits: [UInt64]
    /// The families, by bit position (in the order the table first names them).
    let families: [RecognizerFamily]
    /// The distinct triggers (`|`-marked, as the recognizers give them) and, per trigger, the
    /// families whose recognizers list it.
    let triggers: [String]
    let triggerFamilies: [UInt64]
    let anchors: AnchorSet

    /// `triggerOrder`: triggers to lay out first, in this order (`RecognizerTable.triggerOrder`).
    init(_ recognizers: [Recognizer], triggerOrder: [String] = []) {
        // Linear searches over a few dozen names, no hashing: this runs once, before the first
        // line is read, and counts in every run's start-up.
        var families: [RecognizerFamily] = []
        func bit(_ f: RecognizerFamily) -> UInt64? {
            families.firstIndex(of: f).map { 1 << UInt64($0) }
        }
        for r in recognizers where bit(r.family) == nil {
            precondition(families.count < 64, "more than 64 recognizer families: widen FamilySet")
            families.append(r.family)
        }
        var triggers: [String] = []
        var triggerFamilies: [UInt64] = []
        for t in triggerOrder where !triggers.contains(t) && recognizers.contains(where: { $0.triggers.contains(t) }) {
            triggers.append(t)
            triggerFamilies.append(0)
        }
        var familyBits: [UInt64] = []
        var settleBits: [UInt64] = []
        for r in recognizers {
            let b = bit(r.family)!
            familyBits.append(b)
            // A settled family no recognizer of the table has: no bit, nothing to settle.
            settleBits.append(r.settles.reduce(0) { $0 | (bit($1) ?? 0) })
            for t in r.triggers {
                if let i = triggers.firstIndex(of: t) {
                    triggerFamilies[i] |= b
                } else {
                    triggers.append(t)
                    triggerFamilies.append(b)
                }
            }
        }
        self.recognizers = recognizers
        self.familyBits = familyBits
        self.settleBits = settleBits
        self.families = families
        self.triggers = triggers
        self.triggerFamilies = triggerFamilies
        self.anchors = AnchorSet(triggers)
    }

    /// The families whose triggers occur in `message`.
    @inline(__always)
    func families(in message: UnsafeBufferPointer<UInt8>) -> FamilySet {
        var bits: UInt64 = 0
        triggerFamilies.withUnsafeBufferPointer { perTrigger in
            anchors.forEachLiteral(in: message) { bits |= perTrigger[$0] }
        }
        return FamilySet(rawValue: bits)
    }

    /// The bit of `family`, or nil when no recognizer of the table has it.
    func bit(of family: RecognizerFamily) -> FamilySet? {
        families.firstIndex(of: family).map { FamilySet(rawValue: 1 << UInt64($0)) }
    }
}
