/// The long-lived shape's noise: lines a long-lived iPad app's console is full of, many of which
/// mention UIKit words (scene, application, UIWindowScene, willConnect, window hierarchy) in prose
/// without being a callback. None holds a callback spelling (`-[…]`, `name(_:)`, a selector or a
/// bare callback name leading the message), `Assertion failure`, `Main Thread Checker`, an
/// exception, a Swift trap or "main thread": they must cost the reader time, not add events.
extension LongLivedShape {
    private static let weights = Weighted([
        6, // 0 keyboard event deferring
        2, // 1 Attempt to present … not in the window hierarchy
        3, // 2 NSURLError
        3, // 3 boringssl
        3, // 4 scene state restoration prose
        2, // 5 willConnect in prose
        1, // 6 UIWindowScene description in prose
        4, // 7 "application …" leading the message
        6, // 8 sync
        5, // 9 analytics
        5, // 10 scene snapshot
    ])

    private static let screens: [StaticString] = ["Notebook", "PageEditor", "Sidebar", "Inspector", "Search", "Settings"]

    func longLivedNoise(_ proc: Process) {
        let s = out
        switch Self.weights.pick(&rng) {
        case 0:
            s.str("[UIKitCore] Scene target of keyboard event deferring environment did change: ")
            s.dec(rng.below(2))
        case 1:
            s.str("Attempt to present <UIAlertController: 0x"); s.hex(0x1_0300_0000 &+ rng.next() % 0xFF_FFFF)
            s.str("> on <"); s.str(proc.module); s.str(".RootViewController: 0x"); s.hex(0x1_0200_0000 &+ rng.next() % 0xFF_FFFF)
            s.str("> whose view is not in the window hierarchy.")
        case 2:
            s.str("Task <"); s.uuid(rng.next(), rng.next()); s.str(">.<"); s.dec(rng.range(1, 40)); s.str("> finished with error ")
            if rng.chance(500) {
                s.str("[-1001] Error Domain=NSURLErrorDomain Code=-1001 \"The request timed out.\"")
            } else {
                s.str("[-1009] Error Domain=NSURLErrorDomain Code=-1009 \"The Internet connection appears to be offline.\"")
            }
        case 3:
            if rng.chance(500) {
                s.str("[boringssl] boringssl_metrics_log_metric_block_invoke(153) Failed to log metrics")
            } else {
                s.str("[boringssl] boringssl_session_set_peer_verification_state_from_session(448) [C"); s.dec(rng.range(1, 40))
                s.str(".1.1:2][0x"); s.hex(0x1_0b00_0000 &+ rng.next() % 0xFF_FFFF); s.str("] Unable to extract cached certificate")
            }
        case 4:
            s.str("Restoring scene state for window "); s.dec(rng.below(40))
            s.str(": the application will reconnect the scene when it becomes active")
        case 5:
            s.str("[SceneRouter] willConnect handler deferred for UIWindowScene role UIWindowSceneSessionRoleApplication (")
            s.dec(rng.range(1, 9)); s.str(" windows open)")
        case 6:
            s.str("Presenting share sheet in <UIWindowScene: 0x"); s.hex(0x1_0a00_0000 &+ rng.next() % 0xFF_FFF0)
            s.str("; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: "); s.uuid(rng.next(), rng.next()); s.byte(0x3E)
        case 7:
            s.str("application state restoration finished in "); s.dec(rng.range(2, 90)); s.str(" ms; ")
            s.dec(rng.range(1, 12)); s.str(" scenes restored, "); s.dec(rng.below(3)); s.str(" discarded")
        case 8:
            s.str("Sync: pulled "); s.dec(rng.below(99)); s.str(" changes in "); s.dec(rng.below(999))
            s.str(" ms, cursor advanced to "); s.hex(rng.next(), digits: 16)
        case 9:
            s.str("[Analytics] event=screen_view screen="); s.str(rng.pick(Self.screens))
            s.str(" session="); s.hex(rng.next(), digits: 12); s.str(" queued="); s.dec(rng.below(64))
        default:
            s.str("scene snapshot saved for "); s.str(rng.pick(Self.screens)); s.str(" ("); s.dec(rng.range(640, 2_732))
            s.byte(0x78); s.dec(rng.range(480, 2_048)); s.str(", "); s.dec(rng.range(40, 900)); s.str(" KB)")
        }
    }
}
