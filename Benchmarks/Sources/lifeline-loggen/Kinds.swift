/// The event kinds the generator writes, with the canonical ids of lifecycle-reference.md §1.4
/// (callbacks) and the failure / threading ids. `.expected.json` lists them in this order.
enum Kind: Int, CaseIterable {
    case appWillFinishLaunching, appDidFinishLaunching, appConfigurationForConnecting, appWillTerminate
    case sceneWillConnect, sceneWillEnterForeground, sceneDidBecomeActive, sceneWillResignActive
    case sceneDidEnterBackground, sceneDidDisconnect, sceneOpenURLContexts
    case cpDidConnect, cpDidDisconnect
    case failureAssertion, failureException, threadMainThreadChecker
    // The system's account of an app (Documentation/SystemEvents.md): written by the system stories
    // (SystemWorld) of the mixed and device shapes only.
    case systemLaunch, systemProcessState, systemSceneState, failureSignal, failureJetsam

    var id: StaticString {
        switch self {
        case .appWillFinishLaunching: "app.willFinishLaunching"
        case .appDidFinishLaunching: "app.didFinishLaunching"
        case .appConfigurationForConnecting: "app.configurationForConnecting"
        case .appWillTerminate: "app.willTerminate"
        case .sceneWillConnect: "scene.willConnect"
        case .sceneWillEnterForeground: "scene.willEnterForeground"
        case .sceneDidBecomeActive: "scene.didBecomeActive"
        case .sceneWillResignActive: "scene.willResignActive"
        case .sceneDidEnterBackground: "scene.didEnterBackground"
        case .sceneDidDisconnect: "scene.didDisconnect"
        case .sceneOpenURLContexts: "scene.openURLContexts"
        case .cpDidConnect: "cp.didConnect"
        case .cpDidDisconnect: "cp.didDisconnect"
        case .failureAssertion: "failure.assertion"
        case .failureException: "failure.exception"
        case .threadMainThreadChecker: "thread.mainThreadChecker"
        case .systemLaunch: "system.launch"
        case .systemProcessState: "system.processState"
        case .systemSceneState: "system.sceneState"
        case .failureSignal: "failure.signal"
        case .failureJetsam: "failure.jetsam"
        }
    }
}

enum DelegateRole { case app, scene, carPlay }

/// One callback spelled as Objective-C (`__PRETTY_FUNCTION__` / `_cmd`) and as Swift `#function`.
struct Callback {
    let kind: Kind
    let selector: StaticString
    let swift: StaticString
    let role: DelegateRole
}

enum Callbacks {
    static let willFinishLaunching = Callback(kind: .appWillFinishLaunching, selector: "application:willFinishLaunchingWithOptions:", swift: "application(_:willFinishLaunchingWithOptions:)", role: .app)
    static let didFinishLaunching = Callback(kind: .appDidFinishLaunching, selector: "application:didFinishLaunchingWithOptions:", swift: "application(_:didFinishLaunchingWithOptions:)", role: .app)
    static let configurationForConnecting = Callback(kind: .appConfigurationForConnecting, selector: "application:configurationForConnectingSceneSession:options:", swift: "application(_:configurationForConnecting:options:)", role: .app)
    static let willTerminate = Callback(kind: .appWillTerminate, selector: "applicationWillTerminate:", swift: "applicationWillTerminate(_:)", role: .app)
    static let willConnect = Callback(kind: .sceneWillConnect, selector: "scene:willConnectToSession:options:", swift: "scene(_:willConnectTo:options:)", role: .scene)
    static let willEnterForeground = Callback(kind: .sceneWillEnterForeground, selector: "sceneWillEnterForeground:", swift: "sceneWillEnterForeground(_:)", role: .scene)
    static let didBecomeActive = Callback(kind: .sceneDidBecomeActive, selector: "sceneDidBecomeActive:", swift: "sceneDidBecomeActive(_:)", role: .scene)
    static let willResignActive = Callback(kind: .sceneWillResignActive, selector: "sceneWillResignActive:", swift: "sceneWillResignActive(_:)", role: .scene)
    static let didEnterBackground = Callback(kind: .sceneDidEnterBackground, selector: "sceneDidEnterBackground:", swift: "sceneDidEnterBackground(_:)", role: .scene)
    static let didDisconnect = Callback(kind: .sceneDidDisconnect, selector: "sceneDidDisconnect:", swift: "sceneDidDisconnect(_:)", role: .scene)
    static let openURLContexts = Callback(kind: .sceneOpenURLContexts, selector: "scene:openURLContexts:", swift: "scene(_:openURLContexts:)", role: .scene)
    static let cpDidConnect = Callback(kind: .cpDidConnect, selector: "templateApplicationScene:didConnectInterfaceController:", swift: "templateApplicationScene(_:didConnect:)", role: .carPlay)
    static let cpDidConnectNav = Callback(kind: .cpDidConnect, selector: "templateApplicationScene:didConnectInterfaceController:toWindow:", swift: "templateApplicationScene(_:didConnect:to:)", role: .carPlay)
    static let cpDidDisconnect = Callback(kind: .cpDidDisconnect, selector: "templateApplicationScene:didDisconnectInterfaceController:", swift: "templateApplicationScene(_:didDisconnectInterfaceController:)", role: .carPlay)
    static let cpDidDisconnectNav = Callback(kind: .cpDidDisconnect, selector: "templateApplicationScene:didDisconnectInterfaceController:fromWindow:", swift: "templateApplicationScene(_:didDisconnect:from:)", role: .carPlay)
}
