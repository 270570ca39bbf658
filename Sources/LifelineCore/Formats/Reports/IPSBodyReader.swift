import Foundation

// MARK: - .ips JSON body

/// Reads the JSON body (and header line) of a bug_type 309 `.ips` file.
enum CrashIPSBodyReader {
    /// A string value that says something (command-line tools have empty `app_version`s).
    static func nonEmpty(_ any: Any?) -> String? {
        guard let s = CrashJSONValue.string(any), !s.isEmpty else { return nil }
        return s
    }

    /// Fills fields from the `.ips` header line (only those still unset).
    static func applyHeader(_ header: [String: Any], to r: inout CrashReport) {
        if r.process == nil { r.process = CrashJSONValue.string(header["name"]) ?? CrashJSONValue.string(header["app_name"]) }
        if r.bundleID == nil { r.bundleID = CrashJSONValue.string(header["bundleID"]) }
        if r.appVersion == nil { r.appVersion = nonEmpty(header["app_version"]) }
        if r.appBuild == nil { r.appBuild = nonEmpty(header["build_version"]) }
        if r.osVersion == nil { r.osVersion = CrashJSONValue.string(header["os_version"]) }
        if r.timestamp == nil { r.timestamp = CrashJSONValue.string(header["timestamp"]) }
        if r.incidentIdentifier == nil { r.incidentIdentifier = CrashJSONValue.string(header["incident_id"]) }
    }

    /// Reads a body dictionary (complete or salvaged) and the header line into `draft`.
    static func read(body: [String: Any], header: [String: Any], into draft: inout CrashDraft) {
        var r = draft.report
        r.process = CrashJSONValue.string(body["procName"])
        r.pid = CrashJSONValue.int(body["pid"])
        let bundleInfo = body["bundleInfo"] as? [String: Any]
        r.bundleID = CrashJSONValue.string(bundleInfo?["CFBundleIdentifier"])
        r.appVersion = nonEmpty(bundleInfo?["CFBundleShortVersionString"])
        r.appBuild = nonEmpty(bundleInfo?["CFBundleVersion"])
        r.deviceModel = CrashJSONValue.string(body["modelCode"])
        r.osVersion = CrashJSONValue.string(header["os_version"])
        if r.osVersion == nil {
            if let os = body["osVersion"] as? [String: Any], let train = CrashJSONValue.string(os["train"]) {
                r.osVersion = CrashJSONValue.string(os["build"]).map { "\(train) (\($0))" } ?? train
            } else {
                r.osVersion = CrashJSONValue.string(body["osVersion"])
            }
        }
        r.timestamp = CrashJSONValue.string(body["captureTime"])
        r.incidentIdentifier = CrashJSONValue.string(header["incident_id"]) ?? CrashJSONValue.string(body["incident"])
        applyHeader(header, to: &r)
        draft.processPath = CrashJSONValue.string(body["procPath"])

        if let exception = body["exception"] as? [String: Any] {
            r.exceptionType = CrashJSONValue.string(exception["type"])
            r.signal = CrashJSONValue.string(exception["signal"])
            r.exceptionCodes = CrashJSONValue.string(exception["codes"])
            r.exceptionSubtype = CrashJSONValue.string(exception["subtype"])
        }
        if let termination = body["termination"] as? [String: Any] {
            r.terminationNamespace = CrashJSONValue.string(termination["namespace"])
            if let code = CrashJSONValue.uint64(termination["code"]) {
                r.terminationCode = CrashText.hex(code)
            } else if let code = CrashJSONValue.string(termination["code"]) {
                r.terminationCode = CrashText.normalizedCode(code)
            }
            if let reasons = termination["reasons"] as? [Any] {
                r.terminationReasons = reasons.compactMap { CrashJSONValue.string($0) }
            } else if let indicator = CrashJSONValue.string(termination["indicator"]) {
                r.terminationReasons = [indicator]
            }
        }
        if let asi = body["asi"] as? [String: Any] {
            for key in asi.keys.sorted() {
                if let values = asi[key] as? [Any] {
                    r.applicationSpecificInformation += values.compactMap { CrashJSONValue.string($0) }
                } else if let value = CrashJSONValue.string(asi[key]) {
                    r.applicationSpecificInformation.append(value)
                }
            }
        }
        if let reason = body["exceptionReason"] as? [String: Any] {
            r.exceptionName = CrashJSONValue.string(reason["name"])
            r.exceptionReason = CrashJSONValue.string(reason["composed_message"])
        }

        // Images and the app's own image.
        let usedImages = (body["usedImages"] as? [Any])?.map { $0 as? [String: Any] ?? [:] } ?? []
        let sliceUUID = CrashJSONValue.string(header["slice_uuid"])?.lowercased()
        var appIndex: Int?
        if let path = draft.processPath { appIndex = usedImages.firstIndex(where: { CrashJSONValue.string($0["path"]) == path }) }
        if appIndex == nil, let sliceUUID {
            appIndex = usedImages.firstIndex(where: { CrashJSONValue.string($0["uuid"])?.lowercased() == sliceUUID })
        }
        if appIndex == nil, let name = r.process {
            appIndex = usedImages.firstIndex(where: { CrashJSONValue.string($0["name"]) == name })
        }

        // The app's own binaries: its executable and whatever its bundle ships (frameworks, the
        // `X.debug.dylib` of Xcode 16 debug builds), decided by path, not by symbol names.
        let bundle = draft.processPath.flatMap(CrashText.bundleDirectory)
        let appImages = Set(usedImages.indices.filter { i in
            i == appIndex || CrashText.isInAppBundle(CrashJSONValue.string(usedImages[i]["path"]), bundle: bundle)
        })

        var trapMessages: [String] = []
        func frames(_ any: Any?) -> ([CrashFrame], [Bool]) {
            guard let list = any as? [Any] else { return ([], []) }
            var out: [CrashFrame] = []
            var flags: [Bool] = []
            for (i, element) in list.enumerated() {
                let f = element as? [String: Any] ?? [:]
                let imageIndex = CrashJSONValue.int(f["imageIndex"])
                var image: [String: Any]?
                if let imageIndex, imageIndex >= 0, imageIndex < usedImages.count { image = usedImages[imageIndex] }
                var address: String?
                if let base = CrashJSONValue.uint64(image?["base"]), let offset = CrashJSONValue.uint64(f["imageOffset"]) {
                    address = CrashText.hex(base &+ offset)
                }
                let symbol = CrashJSONValue.string(f["symbol"])
                out.append(CrashFrame(index: i, image: CrashJSONValue.string(image?["name"]), symbol: symbol, address: address,
                                      imageUUID: CrashJSONValue.string(image?["uuid"]), imageBase: CrashJSONValue.uint64(image?["base"]),
                                      arch: CrashJSONValue.string(image?["arch"]), file: CrashJSONValue.string(f["sourceFile"]),
                                      line: CrashJSONValue.int(f["sourceLine"])))
                // A verbose trap (`__builtin_verbose_trap`, libc++ hardening) shows its message as an
                // inline frame at the trap's address: the message, not app code.
                if CrashJSONValue.bool(f["inline"]) == true, let symbol, symbol.hasSuffix("\n") || symbol.hasPrefix("*/") {
                    trapMessages.append(CrashText.trim(Substring(symbol)).split(separator: "/").last.map(String.init) ?? symbol)
                    flags.append(false)
                    continue
                }
                flags.append(imageIndex.map(appImages.contains) ?? false)
            }
            return (out, flags)
        }

        let (leb, lebFlags) = frames(body["lastExceptionBacktrace"])
        draft.lastExceptionBacktrace = leb
        draft.lastExceptionAppFlags = lebFlags

        if let threads = body["threads"] as? [Any] {
            for (i, element) in threads.enumerated() {
                let t = element as? [String: Any] ?? [:]
                var thread = CrashRawThread(index: i, name: CrashJSONValue.string(t["name"]), queue: CrashJSONValue.string(t["queue"]))
                thread.crashed = CrashJSONValue.bool(t["triggered"]) ?? false
                let (f, flags) = frames(t["frames"])
                thread.frames = f
                thread.appFlags = flags
                draft.threads.append(thread)
            }
        }
        r.crashedThread = CrashJSONValue.int(body["faultingThread"]) ?? draft.threads.first(where: { $0.crashed })?.index
        if r.crashedThread != nil, draft.threads.first(where: { $0.index == r.crashedThread }) == nil,
           let legacy = body["legacyInfo"] as? [String: Any], let triggered = legacy["threadTriggered"] as? [String: Any] {
            r.crashedThreadQueue = CrashJSONValue.string(triggered["queue"])
        }
        for m in trapMessages where !r.applicationSpecificInformation.contains(m) { r.applicationSpecificInformation.append(m) }
        draft.report = r
        draft.foundCrashContent = true
    }
}
