/// What a manifest declares, for the reports: a JSON object and a few lines of text.
extension SceneManifest {
    /// The `manifest` object of the JSON reports (keys sorted).
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("configurations")
        w.beginArray()
        for c in configurations {
            w.beginObject()
            w.field("delegateClass", c.delegateClass)
            if let d = c.delegateClass, productModule != nil { w.field("delegateClassExpanded", expand(d).value) }
            w.field("index", c.index)
            w.field("keyPath", c.path.description)
            w.field("line", line(of: c.path))
            w.field("name", c.name)
            w.field("role", c.role)
            w.field("sceneClass", c.sceneClass)
            w.field("storyboard", c.storyboard)
            w.endObject()
        }
        w.endArray()
        w.field("container", container.rawValue)
        w.field("file", file)
        w.field("format", format == .xml ? "xml" : "binary")
        w.field("hasSceneManifest", sceneManifest != nil)
        w.field("member", member)
        w.field("productModule", productModule)
        w.field("supportsMultipleScenes", supportsMultipleScenes)
        w.endObject()
    }

    /// One line per fact: the source, the multiple-scenes flag, each configuration.
    public var summaryLines: [String] {
        guard sceneManifest != nil else { return ["no \(Self.manifestKey): the app does not use scenes"] }
        var out = ["multiple scenes: " + (supportsMultipleScenes.map { $0 ? "YES" : "NO" } ?? "not set (NO)")]
        let list = configurations
        if list.isEmpty { out.append("no scene configuration") }
        for c in list {
            var line = "\(c.role)[\(c.index)]: " + (c.name.map { "\"\($0)\"" } ?? "(no name)")
            if let d = c.delegateClass { line += " → \(expand(d).value)" }
            if let s = c.storyboard { line += ", storyboard \(s)" }
            out.append(line)
        }
        return out
    }
}
