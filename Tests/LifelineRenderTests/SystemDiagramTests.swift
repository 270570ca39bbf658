import Foundation
import Testing
import TestSupport
import LifelineCore
@testable import LifelineRules
@testable import LifelineRender

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Issue 30 in the diagrams: RunningBoard's process machine drawn from its definition, FrontBoard's
/// scene states as dashed edges of the scene machine, and a system lane in the timeline.
@Suite struct SystemDiagramTests {
    /// An icon launch that dies of SIGABRT while in the foreground, as the corpus's iOS 17 device
    /// log tells it, with the app logging its scene callbacks.
    static func crashLog() -> SystemLog {
        var log = SystemLog()
        log.launch()
        log.process("running-active", role: "UserInteractiveFocal")
        log.app("app.didFinishLaunching", scene: nil)
        log.app("scene.willConnect")
        log.scene("foreground")
        log.app("scene.willEnterForeground")
        log.app("scene.didBecomeActive")
        log.kill(.signal, message: "termination reported by launchd (2, 6, 6)")
        log.process("none", role: "None")
        return log
    }

    /// An app that logs nothing of its scenes: FrontBoard's states only, backgrounded and suspended.
    static func quietLog() -> SystemLog {
        var log = SystemLog()
        log.launch(intent: "background", trigger: nil)
        log.process("running-active-NotVisible", role: "Background")
        log.scene("background")
        log.scene("foreground")
        log.process("running-active", role: "UserInteractiveFocal")
        log.scene("background")
        log.process("running-suspended-NotVisible", role: "None")
        log.kill(.jetsam)
        return log
    }

    static func session(_ log: SystemLog) throws -> ProcessSession {
        let sessions = log.sessions()
        try #require(sessions.count == 1)
        return sessions[0]
    }

    static func tally(_ logs: [SystemLog]) throws -> TransitionTally {
        var t = TransitionTally()
        for log in logs { t.add(try session(log)) }
        return t
    }

    @Test("the process machine is drawn from its definition with what was observed, legal edges blue, the kill an edge to its ending")
    func processMachine() throws {
        let dot = StateDiagram.graph(try Self.tally([Self.crashLog(), Self.quietLog()]), title: "system").text
        #expect(dot.contains(#""cluster_process" {"#))
        #expect(dot.contains(#""label"="RunningBoard process (2 processes)""#))
        #expect(dot.contains(##""process.start" -> "process.running-active" ["label"="processState ×1", "color"="#1f6feb""##), "\(dot)")
        #expect(dot.contains(##""process.running-active" -> "process.terminated-by-signal" ["label"="signal ×1"##))
        #expect(dot.contains(##""process.running-suspended-NotVisible" -> "process.killed" ["label"="jetsam ×1"##))
        #expect(dot.contains(##""process.terminated-by-signal" -> "process.none" ["label"="processState ×1"##))
        // Never observed: outlined.
        #expect(dot.contains(#""tooltip"="legal, never observed: failure.jetsam""#) == false, "observed")
        #expect(dot.contains(##""process.killed" -> "process.none" ["label"="processState", "color"="#c8cdd2""##))
    }

    @Test("FrontBoard's scene states are dashed purple edges between the scene machine's states, with a legend; a system-only scene is counted as one")
    func systemSceneEdges() throws {
        let dot = StateDiagram.graph(try Self.tally([Self.crashLog(), Self.quietLog()]), title: "system").text
        #expect(dot.contains(#""label"="UIScene (1 timeline; 1 timeline seen from the system only)""#), "\(dot)")
        #expect(dot.contains(##""scene.legend.system" ["label"="dashed purple: seen from the system (FrontBoard)""##))
        // none → foreground: from the start to where willEnterForeground goes.
        #expect(dot.contains(##""scene.start" -> "scene.foregroundInactive" ["label"="system: none → foreground ×1", "color"="#8250df", "fontcolor"="#8250df", "style"="dashed""##))
        #expect(dot.contains(##""scene.foregroundInactive" -> "scene.background" ["label"="system: foreground → background ×1"##))
        #expect(dot.contains(##""scene.start" -> "scene.background" ["label"="system: none → background ×1"##))
        #expect(dot.contains(#""tooltip"="seen from the system (FrontBoard): background → foreground, 1× (first device.log:4)""#))
        // Only the system's scene: no app-scene edge, and the title says so.
        let quiet = StateDiagram.graph(try Self.tally([Self.quietLog()]), title: "q").text
        #expect(quiet.contains(#""label"="UIScene (1 timeline seen from the system only)""#))
        #expect(!quiet.contains("willConnect ×") && !quiet.contains("didBecomeActive ×"))
    }

    @Test("the timeline has a system lane: the launch with intent and trigger, process states with their role, scene states with their scene")
    func systemLane() throws {
        let g = TimelineDiagram.graph(try Self.session(Self.crashLog()), diagnostics: [])
        let dot = g.text
        #expect(dot.contains(#""lane:system" ["label"="system\n(RunningBoard, FrontBoard)""#), "\(dot)")
        #expect(dot.contains(#""label"="launch\nintent foreground-interactive\nby icon\n+0.000 s""#))
        #expect(dot.contains(#""label"="process running-active\nrole UserInteractiveFocal\n+1.000 s""#))
        #expect(dot.contains(#""label"="S1 foreground\n+4.000 s""#))
        #expect(dot.contains(#""label"="process none\nrole None\n+8.000 s""#))
        // Lanes: the app, its scene, the system.
        let headers = try #require(g.subgraphs.first { $0.name == "lanes" })
        #expect(headers.nodes.map(\.id) == ["lane:app", "lane:S1", "lane:system"])
        // A scene the system alone told of has no lane of its own.
        let quiet = TimelineDiagram.graph(try Self.session(Self.quietLog()), diagnostics: [])
        #expect(quiet.subgraphs.first { $0.name == "lanes" }?.nodes.map(\.id) == ["lane:app", "lane:system"])
        #expect(quiet.text.contains(#""label"="launch\nintent background\n+0.000 s""#))
    }

    @Test("a session without system events has no system lane")
    func noSystemLane() throws {
        var log = SystemLog()
        log.app("app.didFinishLaunching", scene: nil)
        log.app("scene.willConnect")
        let dot = TimelineDiagram.graph(try Self.session(log), diagnostics: []).text
        #expect(!dot.contains("system"))
    }

    @Test("what the system's lines say is escaped in DOT and survives Graphviz as text")
    func hostileSystemText() throws {
        let hostile = #"x"];</g><script>alert(1)</script>\N {"#
        var log = SystemLog()
        log.launch(intent: hostile, trigger: hostile)
        log.process("running-active", role: hostile)
        log.scene(hostile, id: hostile)
        let session = try Self.session(log)
        var tally = TransitionTally()
        tally.add(session)
        for dot in [TimelineDiagram.graph(session, diagnostics: []).text, StateDiagram.graph(tally, title: hostile).text] {
            #expect(!dot.contains(#"x"];"#), "quotes escaped")
            let svg = try GraphvizRenderer().render(dot, format: .svg)
            let parser = XMLParser(data: Data(svg))
            parser.shouldResolveExternalEntities = false
            final class Elements: NSObject, XMLParserDelegate {
                var names: [String] = []
                func parser(_ p: XMLParser, didStartElement e: String, namespaceURI: String?, qualifiedName: String?,
                            attributes: [String: String] = [:]) { names.append(e) }
            }
            let elements = Elements()
            parser.delegate = elements
            #expect(parser.parse(), "the SVG is well-formed XML")
            #expect(!elements.names.contains("script"))
        }
    }

    @Test("the system diagrams match their goldens")
    func goldens() throws {
        try DiagramTests.golden("state-system.dot", StateDiagram.graph(try Self.tally([Self.crashLog(), Self.quietLog()]), title: "system").text)
        try DiagramTests.golden("timeline-system-lane.dot", TimelineDiagram.graph(try Self.session(Self.crashLog()), diagnostics: []).text)
    }
}
