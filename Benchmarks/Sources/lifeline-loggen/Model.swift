/// How an app spells its lifecycle logging.
enum Spelling { case objc, swift, mixed }

struct AppTemplate {
    let name: StaticString
    let module: StaticString
    let bundleID: StaticString
    let appDelegate: StaticString
    let sceneDelegate: StaticString
    /// nil: no CarPlay scene.
    let carPlayDelegate: StaticString?
    /// Navigation apps get the `…toWindow:` CarPlay variants.
    let navigation: Bool
    let spelling: Spelling
    /// Logs with `Logger` (subsystem + category) rather than NSLog.
    let usesLogger: Bool
    let windowScenes: Int
}

let appTemplates: [AppTemplate] = [
    AppTemplate(name: "PhotoClub", module: "PhotoClub", bundleID: "com.example.photoclub", appDelegate: "AppDelegate", sceneDelegate: "SceneDelegate", carPlayDelegate: nil, navigation: false, spelling: .swift, usesLogger: true, windowScenes: 2),
    AppTemplate(name: "Candela", module: "Candela", bundleID: "com.rydersel.Candela", appDelegate: "CDAppDelegate", sceneDelegate: "CDSceneDelegate", carPlayDelegate: nil, navigation: false, spelling: .objc, usesLogger: false, windowScenes: 1),
    AppTemplate(name: "My App", module: "My_App", bundleID: "com.example.my-app", appDelegate: "AppDelegate", sceneDelegate: "SceneDelegate", carPlayDelegate: nil, navigation: false, spelling: .mixed, usesLogger: false, windowScenes: 1),
    AppTemplate(name: "NavKit", module: "NavKit", bundleID: "org.navkit.ios", appDelegate: "NKAppDelegate", sceneDelegate: "NKPhoneSceneDelegate", carPlayDelegate: "NKCarPlaySceneDelegate", navigation: true, spelling: .objc, usesLogger: false, windowScenes: 1),
    AppTemplate(name: "Podcasts Pro", module: "PodcastsPro", bundleID: "io.podpro.app", appDelegate: "AppDelegate", sceneDelegate: "MainSceneDelegate", carPlayDelegate: "CarPlaySceneDelegate", navigation: false, spelling: .swift, usesLogger: true, windowScenes: 1),
    AppTemplate(name: "RideShare", module: "RideShare", bundleID: "com.rideshare.rider", appDelegate: "RSAppDelegate", sceneDelegate: "RSSceneDelegate", carPlayDelegate: "RSCarPlaySceneDelegate", navigation: true, spelling: .mixed, usesLogger: true, windowScenes: 2),
    AppTemplate(name: "Lifeline Demo", module: "LifelineDemo", bundleID: "dev.lifeline.demo", appDelegate: "AppDelegate", sceneDelegate: "SceneDelegate", carPlayDelegate: nil, navigation: false, spelling: .swift, usesLogger: false, windowScenes: 3),
]

enum SceneState { case detached, connected, foregroundInactive, active, resigned, background, carPlayGone }

final class SceneModel {
    let carPlay: Bool
    var address: UInt64 = 0
    var idHi: UInt64 = 0, idLo: UInt64 = 0
    var state = SceneState.detached
    var askedConfiguration = false
    var sentWillConnect = false
    var role: StaticString

    init(carPlay: Bool, role: StaticString) {
        self.carPlay = carPlay
        self.role = role
    }

    func renew(_ rng: inout SplitMix64) {
        address = 0x1_0000_0000 | (rng.next() & 0x0_FFFF_FFF0)
        if rng.chance(500) { address = 0x7F00_0000_0000 | (rng.next() & 0xFF_FFFF_FFF0) }
        idHi = rng.next(); idLo = rng.next()
        state = .detached
        askedConfiguration = false
        sentWillConnect = false
    }
}

final class AppProcess {
    let t: AppTemplate
    let name: [UInt8]
    let module: [UInt8]
    let bundleID: [UInt8]
    var pid = 0
    var mainTID: UInt64 = 0
    var backgroundTIDs: [UInt64] = []
    var launched = false
    var sentWillFinish = false
    var scenes: [SceneModel] = []

    convenience init(_ t: AppTemplate) {
        self.init(t, name: Array(String(describing: t.name).utf8), module: Array(String(describing: t.module).utf8),
                  bundleID: Array(String(describing: t.bundleID).utf8))
    }

    /// An app with a name of its own and a template's delegates, spelling and scenes (the launches
    /// shape writes hundreds of apps from the seven templates).
    init(_ t: AppTemplate, name: [UInt8], module: [UInt8], bundleID: [UInt8]) {
        self.t = t
        self.name = name
        self.module = module
        self.bundleID = bundleID
        for i in 0..<t.windowScenes {
            scenes.append(SceneModel(carPlay: false, role: i == 2 ? "UIWindowSceneSessionRoleExternalDisplayNonInteractive" : "UIWindowSceneSessionRoleApplication"))
        }
        if t.carPlayDelegate != nil {
            scenes.append(SceneModel(carPlay: true, role: "CPTemplateApplicationSceneSessionRoleApplication"))
        }
    }

    /// A new launch: new pid and threads, every scene detached.
    func spawn(_ rng: inout SplitMix64) {
        pid = rng.range(300, 99_999)
        mainTID = UInt64(rng.range(20_000, 9_999_999))
        backgroundTIDs = (0..<rng.range(1, 4)).map { _ in mainTID + UInt64(rng.range(1, 90_000)) }
        launched = false
        sentWillFinish = false
        for s in scenes { s.renew(&rng) }
    }
}

struct Daemon {
    let name: [UInt8]
    let pid: Int
    let tids: [UInt64]
}

let daemonNames: [StaticString] = ["SpringBoard", "runningboardd", "backboardd", "locationd", "nsurlsessiond", "CommCenter", "mDNSResponder", "kernel", "symptomsd", "dasd", "trustd", "apsd", "identityservicesd", "bluetoothd", "wifid", "mediaserverd", "UserEventAgent", "assetsd"]
