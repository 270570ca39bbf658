import Foundation

/// An app's `Info.plist` as the scene life cycle reads it: the `UIApplicationSceneManifest`
/// (reference §8), its configurations per session role, and the keys next to it that matter to
/// scenes (`UIMainStoryboardFile`, `UIDeviceFamily`). Every value keeps its key path, and for an
/// XML property list its line, so a finding can point at it.
public struct SceneManifest: Sendable, Hashable {
    public enum Format: String, Sendable { case xml = "XML", binary }
    /// Where the property list came from: a plist file (a source file, where build variables are
    /// normal), or the `Info.plist` of a built `.app` or inside an `.ipa` (where they are a bug).
    public enum Container: String, Sendable { case file, app, ipa }

    /// The path the user named (a plist, an `.app` directory, an `.ipa`).
    public var source: String
    /// The file findings point at: the plist itself, or the `.ipa` (with `member` inside it).
    public var file: String
    /// The `Info.plist` inside an `.ipa` (`Payload/MyApp.app/Info.plist`).
    public var member: String?
    public var format: Format
    public var container: Container
    public let root: PlistDictionary
    /// Line of each key path (XML property lists read from a file; empty otherwise).
    public var lines: [PlistKeyPath: Int]
    /// What `$(PRODUCT_MODULE_NAME)` expands to (`--product-module`), if given.
    public var productModule: String?

    public static let manifestKey = "UIApplicationSceneManifest"
    public static let configurationsKey = "UISceneConfigurations"

    public var isBuilt: Bool { container != .file }
    /// How the source is described in reports (`Info.plist (XML property list)`).
    public var summary: String {
        let where_ = member.map { "\(file) (\($0))" } ?? file
        return "\(where_), \(format.rawValue) property list" + (isBuilt ? " of a built app" : "")
    }

    /// The line of `path`, or of the nearest enclosing key that has one (nil: a binary plist).
    public func line(of path: PlistKeyPath) -> Int? {
        var p = path
        while true {
            if let l = lines[p] { return l }
            guard !p.steps.isEmpty else { return nil }
            p = PlistKeyPath(Array(p.steps.dropLast()))
        }
    }

    /// The app's bundle ID and executable name (`CFBundleIdentifier`, `CFBundleExecutable`): the name the
    /// app's own log lines go by, which joins them to what the system says of the bundle.
    public var bundleIdentifier: String? { root["CFBundleIdentifier"]?.string }
    public var executable: String? { root["CFBundleExecutable"]?.string }

    /// The `UIApplicationSceneManifest` dictionary, if the plist has one.
    public var sceneManifest: PlistDictionary? { root[Self.manifestKey]?.dictionary }
    public var manifestPath: PlistKeyPath { PlistKeyPath(keys: Self.manifestKey) }
    public var configurationsPath: PlistKeyPath { manifestPath.appending(key: Self.configurationsKey) }

    /// `UIApplicationSupportsMultipleScenes` as written (nil when absent: UIKit takes NO).
    public var supportsMultipleScenes: Bool? { sceneManifest?["UIApplicationSupportsMultipleScenes"]?.bool }

    /// The roles under `UISceneConfigurations`, in file order, with their configurations: worked
    /// out once from `root`, since the rules that check logs against the manifest ask for every session.
    public let roles: [RoleEntry]
    /// Every configuration of every role, in file order.
    public let configurations: [SceneConfiguration]

    public init(source: String, file: String, member: String?, format: Format, container: Container, root: PlistDictionary,
                lines: [PlistKeyPath: Int], productModule: String?) {
        self.source = source
        self.file = file
        self.member = member
        self.format = format
        self.container = container
        self.root = root
        self.lines = lines
        self.productModule = productModule
        roles = Self.roles(in: root)
        configurations = roles.flatMap(\.configurations)
    }

    private static func roles(in root: PlistDictionary) -> [RoleEntry] {
        guard let configs = root[manifestKey]?.dictionary?[configurationsKey]?.dictionary else { return [] }
        let base = PlistKeyPath(keys: manifestKey, configurationsKey)
        return configs.entries.map { role, value in
            let path = base.appending(key: role)
            let list = (value.array ?? []).enumerated().compactMap { i, item -> SceneConfiguration? in
                guard let d = item.dictionary else { return nil }
                return SceneConfiguration(role: role, index: i, path: path.appending(index: i), values: d)
            }
            return RoleEntry(role: role, path: path, value: value, configurations: list)
        }
    }

    /// The configurations of `role`.
    public func configurations(of role: String) -> [SceneConfiguration] {
        roles.first { $0.role == role }?.configurations ?? []
    }

    /// `value` with `$(PRODUCT_MODULE_NAME)` (and `${…}`) expanded when the module is known; the
    /// build variables that stay unexpanded are listed.
    public func expand(_ value: String) -> BuildSettingExpansion { BuildSettingExpansion(value, productModule: productModule) }
}

/// A role key under `UISceneConfigurations` and what it holds.
public struct RoleEntry: Sendable, Hashable {
    public var role: String
    public var path: PlistKeyPath
    public var value: PlistValue
    public var configurations: [SceneConfiguration]
    public var info: SceneRole? { SceneRole(rawValue: role) }
}

/// One scene configuration (a dictionary in a role's array).
public struct SceneConfiguration: Sendable, Hashable {
    public var role: String
    public var index: Int
    public var path: PlistKeyPath
    public var values: PlistDictionary

    public var name: String? { values["UISceneConfigurationName"]?.string }
    public var sceneClass: String? { values["UISceneClassName"]?.string }
    public var delegateClass: String? { values["UISceneDelegateClassName"]?.string }
    public var storyboard: String? { values["UISceneStoryboardFile"]?.string }
    public func path(of key: String) -> PlistKeyPath { path.appending(key: key) }

    public static let knownKeys: Set<String> = ["UISceneConfigurationName", "UISceneClassName", "UISceneDelegateClassName",
                                                "UISceneStoryboardFile", "UILaunchStoryboardName"]
}

/// The session roles UIKit and CarPlay know (reference §3.1, §8).
public enum SceneRole: String, Sendable, CaseIterable {
    case windowApplication = "UIWindowSceneSessionRoleApplication"
    case externalDisplayNonInteractive = "UIWindowSceneSessionRoleExternalDisplayNonInteractive"
    case externalDisplay = "UIWindowSceneSessionRoleExternalDisplay"
    case assistiveAccess = "UIWindowSceneSessionRoleAssistiveAccessApplication"
    case carPlay = "CPTemplateApplicationSceneSessionRoleApplication"
    case carPlayDashboard = "CPTemplateApplicationDashboardSceneSessionRoleApplication"
    case carPlayCluster = "CPTemplateApplicationInstrumentClusterSceneSessionRoleApplication"
    case immersiveSpace = "UISceneSessionRoleImmersiveSpaceApplication"
    case volumetric = "UISceneSessionRoleVolumetricApplication"

    public var isCarPlay: Bool { [.carPlay, .carPlayDashboard, .carPlayCluster].contains(self) }

    /// The scene class a configuration of this role creates (what `UISceneClassName` should say).
    public var sceneClass: String {
        switch self {
        case .carPlay: return "CPTemplateApplicationScene"
        case .carPlayDashboard: return "CPTemplateApplicationDashboardScene"
        case .carPlayCluster: return "CPTemplateApplicationInstrumentClusterScene"
        default: return "UIWindowScene"
        }
    }

    /// The protocol its delegate class adopts.
    public var delegateProtocol: String {
        switch self {
        case .carPlay: return "CPTemplateApplicationSceneDelegate"
        case .carPlayDashboard: return "CPTemplateApplicationDashboardSceneDelegate"
        case .carPlayCluster: return "CPTemplateApplicationInstrumentClusterSceneDelegate"
        default: return "UIWindowSceneDelegate"
        }
    }

    /// The `UIApplicationSceneManifest` flag a CarPlay dashboard or cluster role also needs.
    public var requiredFlag: String? {
        switch self {
        case .carPlayDashboard: return "CPSupportsDashboardNavigationScene"
        case .carPlayCluster: return "CPSupportsInstrumentClusterNavigationScene"
        default: return nil
        }
    }
}

/// A value with its build variables expanded (`$(PRODUCT_MODULE_NAME).SceneDelegate`). Xcode
/// expands them when it builds the app; a source plist keeps them, a built one must not.
public struct BuildSettingExpansion: Sendable, Hashable {
    public var value: String
    /// Variables left as written (`PRODUCT_MODULE_NAME` without `--product-module`, any other).
    public var unexpanded: [String]

    public init(_ text: String, productModule: String?) {
        var out = ""
        var missing: [String] = []
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest.index(after: dollar)
            guard after < rest.endIndex, let close = ["(": ")", "{": "}"][rest[after]],
                  let end = rest[after...].firstIndex(of: Character(close)) else {
                out.append("$")
                rest = rest[after...]
                continue
            }
            let inner = rest[rest.index(after: after)..<end]
            // `$(PRODUCT_MODULE_NAME:c99extidentifier)`: the name before a modifier.
            let name = String(inner.prefix { $0 != ":" })
            if name == "PRODUCT_MODULE_NAME", let productModule {
                out += productModule
            } else {
                out += rest[dollar...end]
                missing.append(name)
            }
            rest = rest[rest.index(after: end)...]
        }
        out += rest
        value = out
        unexpanded = missing
    }

    public var isComplete: Bool { unexpanded.isEmpty }
}

extension SceneManifest {
    /// The class name without its module (`MyApp.SceneDelegate` → `SceneDelegate`), the way
    /// logs that print `-[SceneDelegate …]` or `#function` name it.
    public static func unqualified(_ className: String) -> String {
        String(className.split(separator: ".").last ?? Substring(className))
    }

    /// The Swift module name Xcode derives from a product name: characters other than letters,
    /// digits and `_` become `_` (`a-Shell mini` → `a_Shell_mini`).
    public static func moduleName(forProduct product: String) -> String {
        var s = String(product.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if let f = s.first, f.isNumber { s = "_" + s }
        return s
    }
}
