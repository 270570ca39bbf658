/// The system's lines, in the shapes of shared/corpus/device-logs (an iOS 17 Console.app copy) and
/// its README (iOS 14-16 phrasing): who writes them, how identities are spelled, the lines that are
/// events (counted through `ReaderModel`), and those that are not (echoes, assertions, repeats).
extension SystemWorld {
    // MARK: Writers

    /// SpringBoard's lines: FrontBoard's (`com.apple.FrontBoard`) unless `springBoardSubsystem`.
    func springBoard(_ category: StaticString = "Process", sender: StaticString = "FrontBoard", springBoardSubsystem: Bool = false,
                     level: Level = .default) -> Origin {
        let d = session.springBoard
        var o = Origin(process: d.name, pid: d.pid, tid: d.tids[rng.below(d.tids.count)])
        o.sender = sender; o.subsystem = springBoardSubsystem ? "com.apple.SpringBoard" : "com.apple.FrontBoard"
        o.category = category; o.level = level
        return o
    }

    func runningBoard(_ category: StaticString = "process", level: Level = .default) -> Origin {
        let d = session.runningBoard
        var o = Origin(process: d.name, pid: d.pid, tid: d.tids[rng.below(d.tids.count)])
        o.sender = "RunningBoard"; o.subsystem = "com.apple.runningboard"; o.category = category; o.level = level
        return o
    }

    func kernel(level: Level = .default) -> Origin {
        let d = session.kernel
        var o = Origin(process: d.name, pid: d.pid, tid: d.tids[rng.below(d.tids.count)])
        o.level = level
        return o
    }

    /// A daemon that follows RunningBoard's states (`RBSProcessMonitor` clients).
    func monitor(_ d: Daemon) -> Origin {
        var o = Origin(process: d.name, pid: d.pid, tid: d.tids[rng.below(d.tids.count)])
        o.sender = "RunningBoardServices"; o.subsystem = "com.apple.runningboard"; o.category = "monitor"
        return o
    }

    /// Starts a system line: a little time passes and, now and then, a line of the rest of the log
    /// comes first.
    func begin(_ o: Origin) {
        gen.clock += Int64(rng.range(15, 700))
        if let interleave, rng.chance(config.interleavePerMille) {
            interleave()
            gen.clock += Int64(rng.range(5, 200))
        }
        gen.header(o)
        stats.systemLines += 1
    }

    func end() { out.newline() }

    // MARK: Identities

    /// RunningBoard's identity: `app<com.x.App(PERSONA-UUID)>` (iOS 17+), `application<com.x.App>`.
    func rbID(_ app: SysApp) {
        if session.modern {
            out.str("app<"); out.bytes(app.bundle); out.byte(0x28); out.uuid(session.personaHi, session.personaLo); out.str(")>")
        } else {
            out.str("application<"); out.bytes(app.bundle); out.byte(0x3E)
        }
    }

    /// SpringBoard's identity: `app<com.x.App>` (iOS 17+), `application<com.x.App>`.
    func sbID(_ app: SysApp) {
        out.str(session.modern ? "app<" : "application<"); out.bytes(app.bundle); out.byte(0x3E)
    }

    func rbRef(_ p: SysProcess) { out.byte(0x5B); rbID(p.app); out.byte(0x3A); out.dec(p.pid); out.byte(0x5D) }
    func sbRef(_ p: SysProcess) { out.byte(0x5B); sbID(p.app); out.byte(0x3A); out.dec(p.pid); out.byte(0x5D) }

    /// `[0x8681b9140:(FBSceneManager):sceneID:com.x.App-default]`
    func sceneTag(_ p: SysProcess) {
        out.str("[0x"); out.hex(p.sceneAddress); out.str(":(FBSceneManager):sceneID:"); out.bytes(p.app.bundle); out.str("-default]")
    }

    /// `ID:33-34-1984637`: runningboardd's pid, the originator's, a sequence.
    func assertionID() {
        session.assertionSeq += rng.range(1, 9)
        out.dec(session.runningBoard.pid); out.byte(0x2D); out.dec(session.springBoard.pid); out.byte(0x2D); out.dec(session.assertionSeq)
    }

    /// The app's executable: `/private/var/containers/Bundle/Application/<UUID>/X.app/X` (third-party;
    /// `private`: the kernel's spelling, not the job description's), `/Applications/X.app/X` (Apple).
    func program(_ app: SysApp, kernelSpelling: Bool) {
        if app.apple {
            out.str("/Applications/")
        } else {
            out.str(kernelSpelling ? "/private/var/containers/Bundle/Application/" : "/var/containers/Bundle/Application/")
            out.uuid(app.containerHi, app.containerLo); out.byte(0x2F)
        }
        out.bytes(app.exec); out.str(".app/"); out.bytes(app.exec)
    }

    func programLength(_ app: SysApp) -> Int {
        app.apple ? 14 + app.exec.count * 2 + 5 : 35 + 36 + 1 + app.exec.count * 2 + 5
    }

    func rbIDLength(_ app: SysApp) -> Int { session.modern ? 4 + app.bundle.count + 1 + 36 + 2 : 12 + app.bundle.count + 1 }

    // MARK: Lines that may be events

    /// RunningBoard's `Calculated state for …: STATE (role: ROLE)[ (endowments: …)]`. `change`: the
    /// state is new for the process (for the statistics: a change a reader cannot see as one).
    func stateLine(_ p: SysProcess, _ s: RBState, change: Bool) {
        begin(runningBoard())
        out.str("Calculated state for "); rbID(p.app); out.str(": "); out.str(s.state); out.str(" (role: "); out.str(s.role); out.byte(0x29)
        if session.modern { out.str(" (endowments: "); out.str(s.endowments); out.byte(0x29) }
        end()
        stats.stateLines += 1
        let r = reader.state(p.app, s, at: clock)
        if r.event {
            count(.systemProcessState)
            stats.stateEvents += 1
            if r.repeatsBundle { stats.stateEventsAfterNewPid += 1 }
        } else if change {
            stats.stateChangesReadAsRepeats += 1
        }
    }

    /// SpringBoard's `[app<…>:pid] Setting process task state to: …` and `… visibility to: …` of one
    /// change: details of RunningBoard's state they follow, or (no such state within 1 s) one event.
    func springBoardGroup(_ p: SysProcess, task: TaskState?, visibility: Visibility?) {
        stats.taskGroups += 1
        var events = 0
        if let task {
            begin(springBoard())
            sbRef(p); out.str(" Setting process task state to: "); out.str(task.text)
            end()
            if reader.springBoard(p.app, pid: p.pid, task: task, visibility: nil, at: clock) { events += 1 }
        }
        if let visibility {
            begin(springBoard())
            sbRef(p); out.str(" Setting process visibility to: "); out.str(visibility.text)
            end()
            if reader.springBoard(p.app, pid: p.pid, task: nil, visibility: visibility, at: clock) { events += 1 }
        }
        precondition(events <= 1, "one SpringBoard group made two process-state events")
        if events > 0 {
            count(.systemProcessState)
            stats.taskGroupEvents += 1
        }
    }

    /// FrontBoard's `[0x…:(FBSceneManager):sceneID:…-default] Scene lifecycle state did change: …`.
    func sceneLine(_ p: SysProcess, _ s: SceneLife) {
        begin(springBoard("Scene"))
        sceneTag(p); out.str(" Scene lifecycle state did change: "); out.str(s.text)
        end()
        stats.sceneLines += 1
        let r = reader.scene(p.app, s, pid: p.pid)
        if r.event {
            count(.systemSceneState)
            stats.sceneEvents += 1
        } else if r.acrossProcesses {
            stats.sceneRepeatsAcrossProcesses += 1
        }
    }

    // MARK: Lines that are no event

    /// Other daemons hear of the new state: `Hit the server for a process handle … that resolved to:
    /// […]` (now and then), then `Received state update for PID (…, running-active-Visible` (the
    /// line ends there, as it does on the device). SpringBoard-only: SpringBoard's own echo.
    func echoes(_ p: SysProcess, _ s: RBState, count n: Int) {
        if session.springBoardOnly {
            if rng.chance(600) { echo(p, s, from: springBoard("Common")) }
            return
        }
        for _ in 0..<n {
            let d = session.echoes[rng.below(session.echoes.count)]
            if rng.chance(250) {
                begin(monitor(d))
                out.str("Hit the server for a process handle "); out.hex(p.handle, digits: 16); out.str(" that resolved to: "); rbRef(p)
                end()
                stats.echoLines += 1
            }
            echo(p, s, from: monitor(d))
        }
    }

    private func echo(_ p: SysProcess, _ s: RBState, from o: Origin) {
        begin(o)
        out.str("Received state update for "); out.dec(p.pid); out.str(" ("); rbID(p.app); out.str(", "); out.str(s.echo)
        end()
        stats.echoLines += 1
    }

    func echoCount() -> Int { rng.range(2, 9) }

    /// One line that is no event, about a live process when there is one (a system slot with no
    /// story step due).
    func filler() {
        let p: SysProcess? = live.isEmpty ? nil : live[rng.below(live.count)]
        guard let p else { frontBoardNote(apps[rng.below(apps.count)]); return }
        if session.springBoardOnly {
            switch rng.below(10) {
            case 0..<4: echoes(p, p.rb, count: 1)
            case 4..<6: workspaceAssertion(p)
            case 6..<9: frontBoardNote(p.app)
            default: sceneContentState(p)
            }
            return
        }
        let r = rng.below(100)
        switch r {
        case 0..<14: acquiringAssertion(p)
        case 14..<22:
            begin(runningBoard("assertion"))
            out.str("Assertion "); assertionID(); out.str(" (target:"); rbRef(p); out.str(") will be created as active")
            end()
        case 22..<30:
            begin(runningBoard())
            rbRef(p); out.str(" Set jetsam priority to "); out.dec(p.rb == .active ? 100 : p.rb == .background ? 40 : 10); out.str(" [0] flag[1]")
            end()
        case 30..<36:
            begin(runningBoard())
            rbRef(p); out.str(" Set darwin role to: "); out.str(p.rb == .active ? "UserInteractiveFocal" : p.rb == .background ? "Background" : "None")
            end()
        case 36..<60: echoes(p, p.rb, count: 1)
        case 60..<68:
            let d = session.echoes[rng.below(session.echoes.count)]
            begin(monitor(d))
            out.str("Hit the server for a process handle "); out.hex(p.handle, digits: 16); out.str(" that resolved to: "); rbRef(p)
            end()
        case 68..<71:
            // A repeated state: only when the reader would read it as one.
            if !reader.isStateEvent(p.app, p.rb) { stateLine(p, p.rb, change: false) } else { echoes(p, p.rb, count: 1) }
        case 71..<81: workspaceAssertion(p)
        case 81..<90: frontBoardNote(p.app)
        case 90..<95:
            begin(runningBoard("assertion"))
            out.str("Invalidating assertion "); assertionID(); out.str(" (target:"); rbRef(p)
            out.str(") from originator [osservice<com.apple.SpringBoard>:"); out.dec(session.springBoard.pid); out.byte(0x5D)
            end()
        case 95..<98:
            begin(runningBoard())
            rbRef(p); out.str(" visiblity is "); out.str(p.rb == .active ? "yes" : "no")
            end()
        default:
            // FrontBoard repeating a scene's state, now and then: no event (only when the reader has
            // that state).
            if rng.chance(150), let s = p.scene, reader.sceneIsRepeat(p.app, s) { sceneLine(p, s) } else { sceneContentState(p) }
        }
    }

    /// `Acquiring assertion targeting [app<…>:pid] from originator [osservice<com.apple.SpringBoard>:34] with description …`
    func acquiringAssertion(_ p: SysProcess) {
        begin(runningBoard("assertion"))
        out.str("Acquiring assertion targeting "); rbRef(p); out.str(" from originator [osservice<com.apple.SpringBoard>:")
        out.dec(session.springBoard.pid); out.str("] with description <RBSAssertionDescriptor| \"")
        out.str(rng.pick(["FBWorkspace (ProcessState)", "FBApplicationProcess", "FBSceneSnapshotAction"] as [StaticString]))
        out.str("\" ID:"); assertionID(); out.str(" target:"); out.dec(p.pid)
        out.str(" attributes:[<RBSDomainAttribute| domain:\"com.apple.frontboard\" name:\"")
        out.str(p.rb == .active ? "Visibility" : "Background")
        out.str("\" sourceEnvironment:\"(null)\">]>")
        end()
    }

    func workspaceAssertion(_ p: SysProcess) {
        begin(springBoard())
        sbRef(p); out.str(" Workspace assertion state did change: ")
        out.str(p.rb == .active ? "ForegroundFocal" : p.rb == .background ? "Background" : "None"); out.str(" (acquireAssertion = NO).")
        end()
    }

    func sceneContentState(_ p: SysProcess) {
        begin(springBoard("Scene"))
        out.str("[(FBSceneManager):sceneID:"); out.bytes(p.app.bundle); out.str("-default] scene content state changed: ")
        out.str(p.rb == .active ? "ready" : rng.chance(500) ? "notReady" : "preparing")
        end()
    }

    /// FrontBoard's words about an app's scene that are no lifecycle change (the mixed corpus's old
    /// SpringBoard noise).
    func frontBoardNote(_ app: SysApp) {
        begin(springBoard("Common"))
        if rng.chance(500) {
            out.str("SBMainWorkspaceApplicationSceneLayoutElementViewController-sceneID:"); out.bytes(app.bundle)
            out.str("-default will begin transition to visible "); out.str(rng.chance(500) ? "YES" : "NO")
        } else {
            out.str("Background status assertion invalidated for scene: <FBScene: 0x"); out.hex(0x8_6000_0000 | (rng.next() & 0x0FFF_FFC0))
            out.str("; sceneID: sceneID:"); out.bytes(app.bundle); out.str("-default; valid: NO>")
        }
        end()
    }
}
