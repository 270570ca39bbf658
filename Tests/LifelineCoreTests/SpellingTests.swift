import Testing
@testable import LifelineCore

/// Every callback of the catalogue in every spelling an app logs it with maps to one kind.
@Suite struct SpellingTests {
    static let callbacks = CallbackCatalog.all

    static func spellings(_ c: Callback) -> [String] {
        let cls = c.owner.contains("Application") && !c.owner.contains("Scene") ? "AppDelegate" : "SceneDelegate"
        var forms = [
            "-[\(cls) \(c.selector)]",                       // __PRETTY_FUNCTION__
            "\(c.swift)",                                     // print(#function)
            "\(cls).\(c.swift)",                              // "\(type(of: self)).\(#function)"
            "MyApp.\(cls).\(c.swift)",                        // module-qualified type
            "[\(cls)] \(c.swift)",                            // tagged print
            "🔵 \(c.swift) called",                           // decorated print
            "\(c.selector)",                                   // NSStringFromSelector(_cmd)
            "\(c.selector) extra words after it",
        ]
        if !c.selector.dropLast().contains(":") {
            forms.append(String(c.selector.dropLast()))       // bare word
            forms.append("\(cls): \(c.selector.dropLast())")
        }
        return forms
    }

    static var cases: [(String, String)] {
        callbacks.flatMap { c in spellings(c).map { ($0, c.kind.rawValue) } }
    }

    @Test("NSLog-header lines", arguments: cases)
    func nslog(spelling: String, kind: String) {
        let r = ingest("2024-03-01 10:00:00.123456+0800 MyApp[1234:5678] \(spelling)\n")
        #expect(r.events.map(\.kind.rawValue) == [expectedKind(spelling, kind)], "\(spelling)")
    }

    @Test("bare print lines", arguments: cases)
    func printed(spelling: String, kind: String) {
        let r = ingest("launch\n\(spelling)\n")
        #expect(r.events.map(\.kind.rawValue) == [expectedKind(spelling, kind)], "\(spelling)")
    }

    /// `templateApplicationScene(_:didSelect:)` is the Swift name of two selectors; the first wins.
    func expectedKind(_ spelling: String, _ kind: String) -> String {
        if spelling.contains("templateApplicationScene(_:didSelect:)") { return "cp.didSelectNavigationAlert" }
        return kind
    }

    @Test("the class and spelling are kept")
    func classAndSpelling() {
        let r = ingest("2024-03-01 10:00:00.123456+0800 MyApp[1:2] -[SceneDelegate sceneDidBecomeActive:]\nMyApp.SceneDelegate.scene(_:willConnectTo:options:)\n")
        #expect(r.events.map(\.className) == ["SceneDelegate", "MyApp.SceneDelegate"])
        #expect(r.events.map(\.spelling) == ["-[SceneDelegate sceneDidBecomeActive:]", "MyApp.SceneDelegate.scene(_:willConnectTo:options:)"])
    }

    @Test("words that only resemble callbacks are not events", arguments: [
        "UIApplicationDidBecomeActiveNotification posted",
        "handleApplicationDidEnterBackground called",
        "You've implemented -[<UIApplicationDelegate> application:didReceiveRemoteNotification:fetchCompletionHandler:], but you still need to add \"remote-notification\"",
        "-[UIApplication applicationState]",
        "scene: <FBScene: 0x2808ee5d0; sceneID: com.example-default>",
        "applicationState is background",
        "the scene did become active earlier",
    ])
    func nearMisses(line: String) {
        let r = ingest("2024-03-01 10:00:00.123456+0800 MyApp[1:2] \(line)\n")
        #expect(r.events.isEmpty, "\(r.events.map(\.kind))")
    }

    @Test("scene descriptions keep address, persistent identifier, role and state")
    func sceneDescription() {
        let line = "2024-03-01 10:00:00.123456+0800 MyApp[1:2] -[SceneDelegate scene:willConnectToSession:options:] <UIWindowScene: 0x12c5056d0; role: UIWindowSceneSessionRoleApplication; persistentIdentifier: 5910B345-5C7F-4CA4-BA22-EE6114C79B6A; activationState: UISceneActivationStateUnattached>\n"
        let s = ingest(line).events.first?.scene
        #expect(s == SceneRef(sceneClass: "UIWindowScene", address: "0x12c5056d0", persistentIdentifier: "5910B345-5C7F-4CA4-BA22-EE6114C79B6A",
                              role: "UIWindowSceneSessionRoleApplication", activationState: "UISceneActivationStateUnattached"))
        let session = ingest("2024-03-01 10:00:00.123456+0800 MyApp[1:2] sceneDidDisconnect(_:) <UISceneSession: 0x10659dfe0; persistentIdentifier: 327CBD3C-9EDE-4C0B-B363-C7B4FF5A2754>\n").events.first?.scene
        #expect(session?.persistentIdentifier == "327CBD3C-9EDE-4C0B-B363-C7B4FF5A2754")
    }

    @Test("the catalogue has no duplicate selectors and every kind is a lifecycle kind")
    func catalogue() {
        #expect(Set(CallbackCatalog.all.map(\.selector)).count == CallbackCatalog.all.count)
        #expect(CallbackCatalog.all.allSatisfy { $0.kind.isLifecycleCallback })
        // Every callback of reference §1.4's id list is present.
        let ids = ["scene.willConnect", "scene.willEnterForeground", "scene.didBecomeActive", "scene.willResignActive",
                   "scene.didEnterBackground", "scene.didDisconnect", "scene.openURLContexts", "scene.continueUserActivity",
                   "scene.willContinueUserActivity", "scene.didFailToContinueUserActivity", "scene.didUpdateUserActivity",
                   "scene.stateRestorationActivity", "scene.restoreInteractionState", "windowScene.didUpdateCoordinateSpace",
                   "windowScene.didUpdateEffectiveGeometry", "windowScene.performActionForShortcutItem",
                   "windowScene.userDidAcceptCloudKitShare", "app.willFinishLaunching", "app.didFinishLaunching",
                   "app.configurationForConnecting", "app.didDiscardSceneSessions", "app.didBecomeActive",
                   "app.willResignActive", "app.didEnterBackground", "app.willEnterForeground", "app.willTerminate",
                   "cp.didConnect", "cp.didDisconnect", "cp.dashboard.didConnect", "cp.dashboard.didDisconnect",
                   "cp.cluster.didConnect", "cp.cluster.didDisconnect"]
        let have = Set(CallbackCatalog.all.map(\.kind.rawValue))
        #expect(Set(ids).subtracting(have).isEmpty, "\(Set(ids).subtracting(have))")
    }
}
