import Foundation
import Testing
@testable import LifelineCore

@Suite struct FormatTests {
    @Test("each format's documented sample line is read as that format", arguments: LogFormat.allCases.filter {
        ![.ips, .crash, .logJSON, .xcodeMetadata].contains($0)
    })
    func sampleLine(format: LogFormat) {
        let r = ingest(format.sampleLine + "\n")
        #expect(r.stats.format == format)
        #expect(r.events.count == 1, "\(format.sampleLine)")
    }

    @Test("header fields of each line format", arguments: [
        ("2024-03-01 10:00:00.123456+0800 My App[1234:5678] [SceneConfiguration] sceneDidBecomeActive(_:)",
         LogFormat.xcode, "My App", 1234, UInt64(5678), "2024-03-01T10:00:00.123456+08:00"),
        ("2024-03-01 10:00:01.123 MyApp[12:34] sceneDidBecomeActive(_:)", .xcode, "MyApp", 12, 34, "2024-03-01T10:00:01.123"),
        ("2023-10-14 17:53:54.688700+0800 0x1e2cd    Default     0x0                  4004   14   ImagePreview: (UIKitCore) [com.simon:launch] sceneDidBecomeActive(_:)",
         .logDefault, "ImagePreview", 4004, 0x1e2cd, "2023-10-14T17:53:54.688700+08:00"),
        ("2017-12-07 18:33:57.087589+0800 0x1db404   Default     0x0                  48240  Ur iOS AppName: (CFNetwork) sceneDidBecomeActive(_:)",
         .logDefault, "Ur iOS AppName", 48240, 0x1db404, "2017-12-07T18:33:57.087589+08:00"),
        ("2023-09-27 22:55:39.622623+0200  localhost legacyScreenSaver[41737]: (ScreenSaverExample) -[SceneDelegate sceneDidBecomeActive:]",
         .logSyslog, "legacyScreenSaver", 41737, nil, "2023-09-27T22:55:39.622623+02:00"),
        ("2026-08-11 17:15:22.031 Df Candela[80328:9875ec] [com.rydersel.Candela:path] sceneDidBecomeActive(_:)",
         .logCompact, "Candela", 80328, 0x9875ec, "2026-08-11T17:15:22.031"),
        ("default\t08:00:54.158544-0600\tMyApp\tUIKitCore\tsceneDidBecomeActive(_:)", .console, "MyApp", nil, nil, "08:00:54.158544-06:00"),
        ("16:37:07.610058-0700\t44291\tCotEditor\tSecurity\tSecurity\tcom.apple.runtime-issues\tfault\tsceneDidBecomeActive(_:)", .console, "CotEditor", 44291, nil, "16:37:07.610058-07:00"),
    ] as [(String, LogFormat, String, Int?, UInt64?, String)])
    func fields(line: String, format: LogFormat, process: String, pid: Int?, tid: UInt64?, iso: String) {
        let e = ingest(line + "\n").events.first
        #expect(e?.format == format)
        #expect(e?.process == process)
        #expect(e?.pid == pid)
        #expect(e?.tid == tid)
        #expect(e?.timestamp?.iso == iso)
        #expect(e?.kind == EventKind("scene.didBecomeActive"))
    }

    @Test("idevicesyslog: device name optional, library kept apart from the process, year inferred")
    func deviceSyslog() {
        let r = ingest("Dec 23 12:17:45 iPhone MyApp(UIKitCore)[681] <Notice>: -[SceneDelegate sceneDidEnterBackground:]\nDec 23 12:17:46 MyApp[681] <Error>: -[SceneDelegate sceneDidDisconnect:]\n")
        #expect(r.events.map(\.process) == ["MyApp", "MyApp"])
        #expect(r.events.map(\.level) == ["Notice", "Error"])
        #expect(r.events.first?.timestamp?.yearInferred == true)
        #expect(r.events.first?.timestamp?.iso.hasSuffix("-12-23T12:17:45") == true)
    }

    @Test("Xcode 15 metadata lines join their message and convert the hex TID")
    func metadata() {
        let r = ingest("sceneDidBecomeActive(_:)\nType: Notice | Timestamp: 2025-10-17 11:01:23.249653-05:00 | Process: Chess | Library: Chess | Subsystem: com.example | Category: lifecycle | TID: 0x178d9c\nFrame dropped\nType: stdio\n")
        #expect(r.events.count == 1)
        let e = r.events[0]
        #expect(e.format == .xcodeMetadata && e.process == "Chess" && e.tid == 0x178d9c && e.level == "Notice")
        #expect(e.timestamp?.iso == "2025-10-17T11:01:23.249653-05:00")
        #expect(r.stats.records == 2 && r.stats.continuationLines == 2)
    }

    @Test("ndjson: header banner and count footer are not records; process from the image path")
    func ndjson() {
        let r = ingest("Filtering the log data using \"process == \\\"MyApp\\\"\"\n{\"eventMessage\":\"-[SceneDelegate sceneDidBecomeActive:]\",\"processImagePath\":\"\\/private\\/var\\/MyApp.app\\/MyApp\",\"processID\":12,\"threadID\":259,\"timestamp\":\"2026-07-26 18:11:22.348728+1200\",\"messageType\":\"Default\"}\n{\"count\":1,\"finished\":1}\n", name: "x.ndjson")
        #expect(r.events.map(\.process) == ["MyApp"])
        #expect(r.events.first?.tid == 259)
        #expect(r.stats.nonLogLines == 2 && r.stats.records == 1)
    }

    @Test("timestamps: offsets with and without colon, milliseconds, time only")
    func timestamps() {
        let c = TimeContext(referenceYear: 2024, referenceMonth: 3)
        func iso(_ s: String, _ f: LogFormat = .xcode) -> String? {
            var t = s
            return t.withUTF8 { FieldDecoding.timestamp($0, format: f, context: c)?.iso }
        }
        #expect(iso("2025-10-17 11:01:23.249653-05:00") == "2025-10-17T11:01:23.249653-05:00")
        #expect(iso("2025-08-22 10:41:12.881714+0900") == "2025-08-22T10:41:12.881714+09:00")
        #expect(iso("2024-01-25 19:25:25.7990 -0500") == "2024-01-25T19:25:25.7990")
        #expect(iso("Mar  3 12:17:45", .idevicesyslog) == "2024-03-03T12:17:45")
        #expect(iso("Dec 31 23:59:59", .idevicesyslog) == "2023-12-31T23:59:59")
        var t = "2024-03-01 10:00:00.5+0100"
        let secs = t.withUTF8 { FieldDecoding.timestamp($0, format: .xcode, context: c)?.seconds }
        #expect(secs == 1_709_283_600.5)
    }
}
