import Testing
@testable import LifelineCore

@Suite("Frames, causes and kinds as values")
struct TypedFrameTests {
    @Test("a frame's text is the INDEX IMAGE ADDRESS SYMBOL line outputs have always printed", arguments: [
        (CrashFrame(index: 3, image: "UIKitCore", symbol: "-[UIWindow makeKeyAndVisible]", address: "0x1a2b"), "3 UIKitCore 0x1a2b -[UIWindow makeKeyAndVisible]"),
        (CrashFrame(index: 1, image: "Comet", address: "0x100f", offset: 601_448), "1 Comet 0x100f Comet + 601448"),
        (CrashFrame(index: 2, offset: 12), "2 ??? + 12"),
        (CrashFrame(index: 4, image: "Field Notes", address: "0x10"), "4 Field Notes 0x10"),
        (CrashFrame(index: 0, symbol: "main"), "0 main"),
        (CrashFrame(index: 7), "7"),
    ] as [(CrashFrame, String)])
    func text(frame: CrashFrame, text: String) {
        #expect(frame.text == text)
    }

    @Test("reading a frame line: the image is what precedes the first address", arguments: [
        ("5   Field Notes   0x0000000102a4b9e0 __38-[FNSyncEngine scheduleUploadIfNeeded]_block_invoke + 120",
         CrashFrame(index: 5, image: "Field Notes", symbol: "__38-[FNSyncEngine scheduleUploadIfNeeded]_block_invoke + 120", address: "0x0000000102a4b9e0")),
        ("0\tlibsystem_kernel.dylib\t0x1e9b4a42c __pthread_kill", CrashFrame(index: 0, image: "libsystem_kernel.dylib", symbol: "__pthread_kill", address: "0x1e9b4a42c")),
        ("2 ??? 0x1000", CrashFrame(index: 2, address: "0x1000")),
        ("3 UIKitCore -[UIView layoutSubviews]", CrashFrame(index: 3, symbol: "UIKitCore -[UIView layoutSubviews]")),
    ] as [(String, CrashFrame)])
    func reads(line: String, frame: CrashFrame) {
        #expect(CrashFrame(text: line) == frame)
    }

    @Test("lines that are not frames are not read as frames", arguments: ["", "7", "*** First throw call stack:", "(0x1 0x2)", "abc 0x1 foo"])
    func notFrames(line: String) {
        #expect(CrashFrame(text: line) == nil)
    }

    @Test("a frame's text reads back as the same image, address and location")
    func textReadsBack() {
        let frames = [CrashFrame(index: 3, image: "Field Notes", symbol: "-[A b:]", address: "0x10"),
                      CrashFrame(index: 1, image: "Comet", address: "0x100f", offset: 601_448)]
        for f in frames {
            let read = CrashFrame(text: f.text)
            #expect(read?.image == f.image && read?.address == f.address && read?.symbol == f.location)
        }
    }

    @Test("every lifecycle kind code compares against is a callback of the catalogue")
    func kindConstants() {
        let catalogue = Set(CallbackCatalog.all.map(\.kind))
        for k in EventKind.comparedLifecycleKinds { #expect(catalogue.contains(k), "\(k)") }
        #expect(EventKind.appDidFinishLaunching == EventKind("app.didFinishLaunching"))
    }

    @Test("a crash report's cause is one of the crash causes")
    func crashCauses() {
        #expect(Set(FailureCause.crashCauses).count == 9)
        #expect(FailureCause(rawValue: "swiftTrap") == .swiftTrap)
    }
}
