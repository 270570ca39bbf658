// Word lists for noise lines. None of them may contain a callback name, `-[`, `+[`,
// `Assertion failure`, `Main Thread Checker`, `uncaught exception`, `Fatal error`, or any other
// text the analyzer treats as an event (lifecycle-reference.md §4, §5).

let hosts: [StaticString] = ["api.photoclub.example", "cdn.candela.example", "telemetry.example.net", "gateway.icloud.com", "mesu.apple.com", "graph.facebook.com", "firebaseinstallations.googleapis.com", "app-measurement.com", "api.mapbox.com", "o123456.ingest.sentry.io", "images.unsplash.com", "podcasts.example.org"]
let urlPaths: [StaticString] = ["/v1/feed", "/v2/users/me", "/api/sync", "/v1/photos/upload", "/config.json", "/v3/events/batch", "/styles/v1/streets", "/graphql", "/v1/episodes", "/v2/rides/estimate", "/auth/token/refresh", "/v1/flags"]
let words: [StaticString] = ["sync", "cache", "feed", "thumbnail", "upload", "session", "token", "refresh", "profile", "photo", "album", "route", "playlist", "episode", "download", "prefetch", "index", "queue", "batch", "render", "layout", "metrics", "config", "flag", "experiment", "segment", "chunk", "manifest", "asset", "bundle", "ride", "driver", "map", "tile", "search", "history"]
let screens: [StaticString] = ["Settings", "Feed", "Profile", "Album", "Player", "Map", "Search", "Onboarding", "Paywall", "RideSummary"]
let nonAsciiTexts: [StaticString] = ["当前是子线程", "下载完成 ✅ 共 12 项", "Синхронизация завершена за 120 мс", "🚀 upload queued — 52%", "ファイルを保存しました", "Ünïcødé café – résumé naïve", "📸 Фото сохранено", "데이터 동기화 완료", "مرحبا بالعالم — تم التحميل", "🔥🔥 cache warmed up 🔥🔥", "登录成功，用户ID：", "⚠️ Speicherplatz fast voll", "Ελληνικά: η λήψη ολοκληρώθηκε", "🎧 正在播放：第 3 集", "✈️ Mode avion activé"]
let printTexts: [StaticString] = ["Frame dropped", "count = 12", "Optional(\"abc\")", "refresh done in 0.123s", "[]", "nil", "DEBUG: reloading table", "当前是子线程", "🟢 ready", "value changed to 0.75", "---- request ----", "Optional(PhotoClub.User(id: 42, name: \"Ana\"))"]
let keyboards: [StaticString] = ["iPhone-PortraitChoco-NumberPad", "iPhone-PortraitTruffle-Emoji", "iPad-Landscape-QWERTY", "iPhone-PortraitChoco-DecimalPad"]
let xpcServices: [StaticString] = ["com.apple.lsd.mapdb", "com.apple.runningboard", "com.apple.mobilegestalt.xpc", "com.apple.cfprefsd.daemon", "com.apple.usernotifications.listener", "com.apple.trustd", "com.apple.nsurlsessiond"]
let sandboxPaths: [StaticString] = ["/private/var/mobile/Library/Caches/com.apple.keyboards/images", "/private/var/db/DetachedSignatures", "/private/var/mobile/Library/Preferences/com.apple.UIKit.plist", "/System/Library/PrivateFrameworks/FontServices.framework/Resources"]
let jsonTitles: [StaticString] = ["Morning light", "Autumn walk", "Café 大阪", "Trail run", "Ünïcødé test", "Night sky ✨", "Harbour", "Weekend"]
let coreDataSQL: [StaticString] = ["SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA", "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZCREATED FROM ZPHOTO t0 WHERE  t0.ZALBUM = ? ORDER BY t0.ZCREATED DESC LIMIT 50", "BEGIN EXCLUSIVE", "COMMIT", "pragma journal_mode=wal"]
let telephony: [StaticString] = ["#I Received pdp context state change: context=0, state=active", "#I [config.mobile.carrier] Bundle version 52.0", "#I Signal strength bars changed: 3 -> 4", "#N CSI: registration status: home"]
let mediaTexts: [StaticString] = ["<<<< FigPlayerInterstitial >>>> fpic_ServiceCurrentEvent: event loop idle", "<<<< FigFilePlayer >>>> itemfig_setPropertyCallback: rate 1.000", "AVAudioSession.mm:1232   Deactivating an audio session that has running I/O. All I/O should be stopped or paused prior to deactivating the audio session.", "<<<< AVAudioSessionPortImpl >>>> route change: reason 3 (category change)"]

// App-side strings.
let mtcAPIs: [StaticString] = ["-[UIApplication applicationState]", "-[UIView setNeedsLayout]", "-[UIViewController presentedViewController]", "-[UIView layoutIfNeeded]", "-[UIWindow rootViewController]", "-[UILabel setText:]", "-[UIView bounds]", "-[UIApplication delegate]", "-[UIImageView setImage:]", "-[UIView setHidden:]"]
let mtcQueues: [StaticString] = ["com.apple.photos.accessCallbacks", "com.alipay.log", "NSOperationQueue 0x7f8685ca3840 (QOS: UNSPECIFIED)", "com.apple.NSURLSession-delegate (QOS: UNSPECIFIED)", "com.example.feed.sync", "com.apple.root.default-qos", "(none)"]
let mtcThreadNames: [StaticString] = ["(none)", "(none)", "(none)", "com.apple.CoreMotion.MotionThread", "GTCore_GTCoreModel", "com.apple.NSURLConnectionLoader"]
let mtcQoS: [Int] = [0, 0, 9, 17, 21, 25, 33]

struct Frame { let image: StaticString; let symbol: StaticString }
/// Backtrace frames. None names a lifecycle callback.
let mtcFrames: [Frame] = [
    Frame(image: "PhotosUI", symbol: "51E602DA-1E0B-3CA1-8DE6-43DD423F795D + 56792"),
    Frame(image: "PhotoLibraryServicesCore", symbol: "PLPresentLimitedLibraryPicker + 388"),
    Frame(image: "Foundation", symbol: "__NSBLOCKOPERATION_IS_CALLING_OUT_TO_A_BLOCK__ + 24"),
    Frame(image: "Foundation", symbol: "-[NSBlockOperation main] + 104"),
    Frame(image: "CFNetwork", symbol: "_CFNetworkHTTPConnectionCacheSetLimit + 205116"),
    Frame(image: "libdispatch.dylib", symbol: "_dispatch_call_block_and_release + 32"),
    Frame(image: "libdispatch.dylib", symbol: "_dispatch_client_callout + 20"),
    Frame(image: "libdispatch.dylib", symbol: "_dispatch_lane_serial_drain + 668"),
    Frame(image: "libdispatch.dylib", symbol: "_dispatch_workloop_worker_thread + 648"),
    Frame(image: "libsystem_pthread.dylib", symbol: "_pthread_wqthread + 288"),
    Frame(image: "libsystem_pthread.dylib", symbol: "start_wqthread + 8"),
]
let appFrameSymbols: [StaticString] = ["$s9PhotoClub11FeedServiceC6reloadyyFyycfU_ + 72", "__41-[APLogManager setupTimeForCheckFileSize]_block_invoke_2.608 + 140", "-[UIViewController(STPopup) st_presentedViewController] + 72", "$s9PhotoClub18FeedViewControllerC10updateCellyySiF + 312", "-[NKMapRenderer renderTileAtPath:] + 228", "$s11PodcastsPro6PlayerC14updateProgressyyF + 96", "closure #1 in RideTracker.poll() + 180"]
let exceptionFrames: [Frame] = [
    Frame(image: "UIKitCore", symbol: "-[UIApplication _runWithMainScene:transitionContext:completion:] + 1132"),
    Frame(image: "UIKitCore", symbol: "-[_UISceneLifecycleMultiplexer completeApplicationLaunchWithFBSScene:transitionContext:] + 132"),
    Frame(image: "UIKitCore", symbol: "-[UIApplication _compellApplicationLaunchToCompleteUnconditionally] + 52"),
    Frame(image: "UIKitCore", symbol: "-[UIApplication workspace:didCreateScene:withTransitionContext:completion:] + 304"),
    Frame(image: "UIKitCore", symbol: "-[UITableView _createPreparedCellForGlobalRow:withIndexPath:willDisplay:] + 680"),
    Frame(image: "UIKitCore", symbol: "-[UIApplication _run] + 932"),
    Frame(image: "FrontBoardServices", symbol: "-[FBSScene _callOutQueue_agent_didCreateWithTransitionContext:completion:] + 392"),
    Frame(image: "FrontBoardServices", symbol: "__94-[FBSWorkspaceScenesClient createSceneWithIdentity:parameters:transitionContext:completion:]_block_invoke.95 + 208"),
    Frame(image: "CoreFoundation", symbol: "-[__NSArrayM objectAtIndexedSubscript:] + 152"),
    Frame(image: "CoreFoundation", symbol: "__CFRUNLOOP_IS_CALLING_OUT_TO_A_BLOCK__ + 20"),
    Frame(image: "CoreFoundation", symbol: "__CFRunLoopDoBlocks + 352"),
    Frame(image: "CoreFoundation", symbol: "__CFRunLoopRun + 812"),
    Frame(image: "CoreFoundation", symbol: "CFRunLoopRunSpecific + 572"),
    Frame(image: "GraphicsServices", symbol: "GSEventRunModal + 160"),
    Frame(image: "libdispatch.dylib", symbol: "_dispatch_main_queue_drain + 88"),
    Frame(image: "CarPlay", symbol: "-[CPTemplateApplicationScene _deliverInterfaceControllerToDelegate] + 240"),
]

struct ExceptionText { let name: StaticString; let reason: StaticString }
let exceptions: [ExceptionText] = [
    ExceptionText(name: "NSInternalInconsistencyException", reason: "Application windows are expected to have a root view controller at the end of application launch"),
    ExceptionText(name: "NSInternalInconsistencyException", reason: "representation's delegateClass must conform to UISceneDelegate protocol"),
    ExceptionText(name: "NSGenericException", reason: "Application does not implement CarPlay template application lifecycle methods in its scene delegate."),
    ExceptionText(name: "NSObjectNotAvailableException", reason: "UIAlertView is deprecated and unavailable for UIScene based applications, please use UIAlertController!"),
    ExceptionText(name: "NSUnknownKeyException", reason: "[<UIWindowScene 0x7f83aff06ff0> valueForUndefinedKey:]: this class is not key value coding-compliant for the key delegate.window."),
    ExceptionText(name: "NSRangeException", reason: "*** -[__NSArrayM objectAtIndexedSubscript:]: index 5 beyond bounds [0 .. 3]"),
    ExceptionText(name: "NSInvalidArgumentException", reason: "-[__NSCFString count]: unrecognized selector sent to instance 0x600000c4a2e0"),
    ExceptionText(name: "NSInternalInconsistencyException", reason: "Invalid parameter not satisfying: indexPath != nil"),
]

struct AssertionSite { let method: StaticString; let file: StaticString; let line: Int }
let assertionSites: [AssertionSite] = [
    AssertionSite(method: "-[UIApplication _runWithMainScene:transitionContext:completion:]", file: "/BuildRoot/Library/Caches/com.apple.xbs/Sources/UIKit_Sim/UIKit-3600.6.21/UIApplication.m", line: 3680),
    AssertionSite(method: "-[UIApplication _runWithMainScene:transitionContext:completion:]", file: "UIApplication.m", line: 3680),
    AssertionSite(method: "-[FBSSceneImpl initWithQueue:identifier:display:settings:clientSettings:]", file: "/BuildRoot/Library/Caches/com.apple.xbs/Sources/FrontBoardServices/FrontBoard-626.2/FrontBoardServices/FBSSceneImpl.m", line: 114),
    AssertionSite(method: "-[UITableView _dequeueReusableCellWithIdentifier:forIndexPath:usingPresentationValues:]", file: "UITableView.m", line: 8625),
    AssertionSite(method: "-[PCPhotoStore insertAsset:atIndex:]", file: "PCPhotoStore.m", line: 212),
    AssertionSite(method: "-[UICollectionViewData validateLayoutInRect:]", file: "UICollectionViewData.m", line: 454),
    AssertionSite(method: "void _UIGraphicsBeginImageContextWithOptions(CGSize, BOOL, CGFloat, BOOL)", file: "UIGraphics.m", line: 410),
    AssertionSite(method: "-[CPTemplateApplicationScene _deliverInterfaceControllerToDelegate]", file: "/AppleInternal/Library/BuildRoots/4b66fb3c/Library/Caches/com.apple.xbs/Sources/CarPlay/CPTemplateApplicationScene.m", line: 230),
]
