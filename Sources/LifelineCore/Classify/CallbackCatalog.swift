/// Every lifecycle callback Lifeline knows, in its Objective-C and Swift spellings
/// (lifecycle reference §1.4, §2.1, §3.2, §3.3), mapped to one canonical kind.
public struct Callback: Sendable, Equatable {
    public let kind: EventKind
    /// Objective-C selector: `scene:willConnectToSession:options:`.
    public let selector: String
    /// Swift spelling as `#function` prints it: `scene(_:willConnectTo:options:)`.
    public let swift: String
    /// The protocol that declares it.
    public let owner: String
}

public enum CallbackCatalog {
    public static let all: [Callback] = {
        func c(_ kind: String, _ sel: String, _ swift: String, _ owner: String) -> Callback {
            Callback(kind: EventKind(kind), selector: sel, swift: swift, owner: owner)
        }
        let scene = "UISceneDelegate", window = "UIWindowSceneDelegate", app = "UIApplicationDelegate"
        let cp = "CPTemplateApplicationSceneDelegate", dash = "CPTemplateApplicationDashboardSceneDelegate"
        let cluster = "CPTemplateApplicationInstrumentClusterSceneDelegate"
        return [
            // UISceneDelegate
            c("scene.willConnect", "scene:willConnectToSession:options:", "scene(_:willConnectTo:options:)", scene),
            c("scene.didDisconnect", "sceneDidDisconnect:", "sceneDidDisconnect(_:)", scene),
            c("scene.didBecomeActive", "sceneDidBecomeActive:", "sceneDidBecomeActive(_:)", scene),
            c("scene.willResignActive", "sceneWillResignActive:", "sceneWillResignActive(_:)", scene),
            c("scene.willEnterForeground", "sceneWillEnterForeground:", "sceneWillEnterForeground(_:)", scene),
            c("scene.didEnterBackground", "sceneDidEnterBackground:", "sceneDidEnterBackground(_:)", scene),
            c("scene.openURLContexts", "scene:openURLContexts:", "scene(_:openURLContexts:)", scene),
            c("scene.stateRestorationActivity", "stateRestorationActivityForScene:", "stateRestorationActivity(for:)", scene),
            c("scene.restoreInteractionState", "scene:restoreInteractionStateWithUserActivity:", "scene(_:restoreInteractionStateWith:)", scene),
            c("scene.willContinueUserActivity", "scene:willContinueUserActivityWithType:", "scene(_:willContinueUserActivityWithType:)", scene),
            c("scene.continueUserActivity", "scene:continueUserActivity:", "scene(_:continue:)", scene),
            c("scene.didFailToContinueUserActivity", "scene:didFailToContinueUserActivityWithType:error:", "scene(_:didFailToContinueUserActivityWithType:error:)", scene),
            c("scene.didUpdateUserActivity", "scene:didUpdateUserActivity:", "scene(_:didUpdate:)", scene),
            // UIWindowSceneDelegate
            c("windowScene.didUpdateCoordinateSpace", "windowScene:didUpdateCoordinateSpace:interfaceOrientation:traitCollection:", "windowScene(_:didUpdate:interfaceOrientation:traitCollection:)", window),
            c("windowScene.didUpdateEffectiveGeometry", "windowScene:didUpdateEffectiveGeometry:", "windowScene(_:didUpdateEffectiveGeometry:)", window),
            c("windowScene.performActionForShortcutItem", "windowScene:performActionForShortcutItem:completionHandler:", "windowScene(_:performActionFor:completionHandler:)", window),
            c("windowScene.userDidAcceptCloudKitShare", "windowScene:userDidAcceptCloudKitShareWithMetadata:", "windowScene(_:userDidAcceptCloudKitShareWith:)", window),
            c("windowScene.preferredWindowingControlStyle", "preferredWindowingControlStyleForScene:", "preferredWindowingControlStyle(for:)", window),
            // UIApplicationDelegate
            c("app.willFinishLaunching", "application:willFinishLaunchingWithOptions:", "application(_:willFinishLaunchingWithOptions:)", app),
            c("app.didFinishLaunching", "application:didFinishLaunchingWithOptions:", "application(_:didFinishLaunchingWithOptions:)", app),
            c("app.didFinishLaunching", "applicationDidFinishLaunching:", "applicationDidFinishLaunching(_:)", app),
            c("app.configurationForConnecting", "application:configurationForConnectingSceneSession:options:", "application(_:configurationForConnecting:options:)", app),
            c("app.didDiscardSceneSessions", "application:didDiscardSceneSessions:", "application(_:didDiscardSceneSessions:)", app),
            c("app.didBecomeActive", "applicationDidBecomeActive:", "applicationDidBecomeActive(_:)", app),
            c("app.willResignActive", "applicationWillResignActive:", "applicationWillResignActive(_:)", app),
            c("app.willEnterForeground", "applicationWillEnterForeground:", "applicationWillEnterForeground(_:)", app),
            c("app.didEnterBackground", "applicationDidEnterBackground:", "applicationDidEnterBackground(_:)", app),
            c("app.willTerminate", "applicationWillTerminate:", "applicationWillTerminate(_:)", app),
            c("app.openURL", "application:openURL:options:", "application(_:open:options:)", app),
            c("app.performActionForShortcutItem", "application:performActionForShortcutItem:completionHandler:", "application(_:performActionFor:completionHandler:)", app),
            c("app.continueUserActivity", "application:continueUserActivity:restorationHandler:", "application(_:continue:restorationHandler:)", app),
            c("app.didReceiveMemoryWarning", "applicationDidReceiveMemoryWarning:", "applicationDidReceiveMemoryWarning(_:)", app),
            c("app.protectedDataWillBecomeUnavailable", "applicationProtectedDataWillBecomeUnavailable:", "applicationProtectedDataWillBecomeUnavailable(_:)", app),
            c("app.protectedDataDidBecomeAvailable", "applicationProtectedDataDidBecomeAvailable:", "applicationProtectedDataDidBecomeAvailable(_:)", app),
            c("app.handleEventsForBackgroundURLSession", "application:handleEventsForBackgroundURLSession:completionHandler:", "application(_:handleEventsForBackgroundURLSession:completionHandler:)", app),
            c("app.didReceiveRemoteNotification", "application:didReceiveRemoteNotification:fetchCompletionHandler:", "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)", app),
            c("app.performFetch", "application:performFetchWithCompletionHandler:", "application(_:performFetchWithCompletionHandler:)", app),
            c("app.didRegisterForRemoteNotifications", "application:didRegisterForRemoteNotificationsWithDeviceToken:", "application(_:didRegisterForRemoteNotificationsWithDeviceToken:)", app),
            // CarPlay (navigation apps get the window variants)
            c("cp.didConnect", "templateApplicationScene:didConnectInterfaceController:toWindow:", "templateApplicationScene(_:didConnect:to:)", cp),
            c("cp.didDisconnect", "templateApplicationScene:didDisconnectInterfaceController:fromWindow:", "templateApplicationScene(_:didDisconnect:from:)", cp),
            c("cp.didConnect", "templateApplicationScene:didConnectInterfaceController:", "templateApplicationScene(_:didConnect:)", cp),
            c("cp.didDisconnect", "templateApplicationScene:didDisconnectInterfaceController:", "templateApplicationScene(_:didDisconnectInterfaceController:)", cp),
            c("cp.didSelectNavigationAlert", "templateApplicationScene:didSelectNavigationAlert:", "templateApplicationScene(_:didSelect:)", cp),
            c("cp.didSelectManeuver", "templateApplicationScene:didSelectManeuver:", "templateApplicationScene(_:didSelect:)", cp),
            c("cp.contentStyleDidChange", "contentStyleDidChange:", "contentStyleDidChange(_:)", cp),
            c("cp.dashboard.didConnect", "templateApplicationDashboardScene:didConnectDashboardController:toWindow:", "templateApplicationDashboardScene(_:didConnect:to:)", dash),
            c("cp.dashboard.didDisconnect", "templateApplicationDashboardScene:didDisconnectDashboardController:fromWindow:", "templateApplicationDashboardScene(_:didDisconnect:from:)", dash),
            c("cp.cluster.didConnect", "templateApplicationInstrumentClusterScene:didConnectInstrumentClusterController:", "templateApplicationInstrumentClusterScene(_:didConnect:)", cluster),
            c("cp.cluster.didDisconnect", "templateApplicationInstrumentClusterScene:didDisconnectInstrumentClusterController:", "templateApplicationInstrumentClusterScene(_:didDisconnectInstrumentClusterController:)", cluster),
            c("cp.cluster.didConnectWindow", "instrumentClusterControllerDidConnectWindow:", "instrumentClusterControllerDidConnect(_:)", "CPInstrumentClusterControllerDelegate"),
            // Pre-scene CarPlay (CPApplicationDelegate, iOS 12-13)
            c("cp.legacy.didConnect", "application:didConnectCarInterfaceController:toWindow:", "application(_:didConnectCarInterfaceController:to:)", "CPApplicationDelegate"),
            c("cp.legacy.didDisconnect", "application:didDisconnectCarInterfaceController:fromWindow:", "application(_:didDisconnectCarInterfaceController:from:)", "CPApplicationDelegate"),
        ]
    }()

    /// Objective-C selector → callback.
    public static let bySelector: [String: Callback] = {
        var d: [String: Callback] = [:]
        for c in all where d[c.selector] == nil { d[c.selector] = c }
        return d
    }()

    /// Swift spelling → callback. `templateApplicationScene(_:didSelect:)` is shared by two
    /// selectors; the first (navigation alert) wins, and the kind says `cp.didSelect…`.
    public static let bySwift: [String: Callback] = {
        var d: [String: Callback] = [:]
        for c in all where d[c.swift] == nil { d[c.swift] = c }
        return d
    }()

    /// Single-word callbacks (`sceneDidBecomeActive`) that may be logged as a bare word, without
    /// the colon or parentheses; accepted only at the start of a message.
    public static let byBareName: [String: Callback] = {
        var d: [String: Callback] = [:]
        for c in all where !c.selector.dropLast().contains(":") && c.selector.hasSuffix(":") {
            d[String(c.selector.dropLast())] = c
        }
        return d
    }()
}

/// Looks callbacks up by the bytes of a spelling, without making a String (the hot path sees
/// thousands of candidate spellings per MB).
struct SpellingTable: Sendable {
    private var slots: [(hash: UInt64, spelling: [UInt8], callback: Callback)?]
    private let mask: Int

    init(_ entries: [String: Callback]) {
        var size = 16
        while size < entries.count * 4 { size *= 2 }
        mask = size - 1
        slots = Array(repeating: nil, count: size)
        for (spelling, callback) in entries {
            let bytes = Array(spelling.utf8)
            let h = bytes.withUnsafeBufferPointer { Self.hash($0) }
            var i = Int(truncatingIfNeeded: h) & mask
            while slots[i] != nil { i = (i + 1) & mask }
            slots[i] = (h, bytes, callback)
        }
    }

    /// FNV-1a, 64-bit.
    @inline(__always) static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        for x in b { h = (h ^ UInt64(x)) &* 0x100000001b3 }
        return h
    }

    func lookup(_ b: UnsafeBufferPointer<UInt8>) -> Callback? {
        let h = Self.hash(b)
        var i = Int(truncatingIfNeeded: h) & mask
        while let slot = slots[i] {
            if slot.hash == h, slot.spelling.count == b.count, slot.spelling.elementsEqual(b) { return slot.callback }
            i = (i + 1) & mask
        }
        return nil
    }
}

extension CallbackCatalog {
    static let selectorTable = SpellingTable(bySelector)
    static let swiftTable = SpellingTable(bySwift)

    /// True for a backtrace symbol that is a lifecycle callback (any spelling) or part of UIKit's
    /// scene / launch machinery — the frames that say *where in the lifecycle* a crash happened.
    public static func isLifecycleSymbol(_ symbol: String) -> Bool {
        if let open = symbol.firstIndex(of: "["), let space = symbol[open...].firstIndex(of: " "),
           let close = symbol[space...].firstIndex(of: "]") {
            let selector = String(symbol[symbol.index(after: space)..<close])
            if bySelector[selector] != nil { return true }
        }
        if let paren = symbol.firstIndex(of: "(") {
            let head = symbol[..<paren]
            let name = head.split(separator: ".").last.map(String.init) ?? String(head)
            if let close = symbol[paren...].firstIndex(of: ")") {
                let spelling = name + symbol[paren...close]
                if bySwift[spelling] != nil { return true }
            }
        }
        return lifecycleMachinery.contains { symbol.contains($0) }
    }

    /// UIKit / FrontBoard symbols that run scene connection, activation and launch.
    static let lifecycleMachinery = [
        "_UISceneLifecycleMultiplexer", "UIApplicationMain", "_runWithMainScene", "FinishLaunching",
        "_mainQueue_makeKeyAndVisible", "makeKeyAndVisible", "didCreateScene", "_connectUISceneFromFBSScene",
        "scene:didInitializeWithEvent", "_callInitializationDelegatesWithActions", "_performSceneActivation",
        "UIWindowScene", "FBSSceneImpl", "SceneDelegate", "templateApplicationScene",
    ]
}
