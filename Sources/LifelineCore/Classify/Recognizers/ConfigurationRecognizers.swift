// UIKit's scene configuration and "client bug" messages (lifecycle reference §5.3).

extension RecognizerFamily {
    static let configuration = RecognizerFamily("configuration")
}

extension Recognizer {
    static let noConfiguration: Recognizer = {
        let pattern = Pattern.builtIn(#"contained no UIScene configuration dictionary \(looking for configuration named "(?<name>[^"]*)"\)"#)
        let name = pattern.group("name")
        return Recognizer("no scene configuration", family: .configuration, triggers: ["|UIScene"], pattern: pattern) { c, m, r in
            var d = EventDetails()
            d.configurationName = m[name]
            var e = c.event(.sceneConfiguration, r, details: d)
            if r.category == nil, r.message.hasPrefix("[SceneConfiguration]") { e.category = "SceneConfiguration" }
            return .event(e)
        }
    }()

    static let sceneDelegateProblem: Recognizer = {
        let pattern = Pattern.builtIn(#"(?:could not load class with name|failed to load the class named) "(?<className>[^"]+)"|There is no scene delegate set"#)
        let className = pattern.group("className")
        return Recognizer("scene delegate not loaded", family: .configuration, triggers: ["scene de|legate", "|UIScene"],
                          pattern: pattern) { c, m, r in
            var d = EventDetails()
            d.method = m[className]
            d.reason = r.message.trimmed
            return .event(c.event(.sceneConfiguration, r, details: d))
        }
    }()

    static let sceneLifecycleNotAdopted = Recognizer(
        "scene life cycle not adopted", family: .configuration, triggers: ["CLIENT OF |UIKIT", "|UIScene"],
        pattern: .builtIn(#"CLIENT OF UIKIT REQUIRES UPDATE:.*UIScene lifecycle|`UIScene` lifecycle will soon be required"#)) { c, r in
        c.event(.sceneLifecycleNotAdopted, r, details: nil)
    }

    static let uikitClientBug: Recognizer = {
        let pattern = Pattern.builtIn(#"(?:COMPATIBILITY )?BUG IN CLIENT OF UIKIT:?\s*(?<reason>.*)$"#)
        let reason = pattern.group("reason")
        return Recognizer("UIKit client bug", family: .configuration, triggers: ["CLIENT OF |UIKIT"], pattern: pattern) { c, m, r in
            var d = EventDetails()
            d.reason = m[reason]
            return .event(c.event(.uikitClientBug, r, details: d))
        }
    }()
}
