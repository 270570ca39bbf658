/// One stack frame, from the report reader that parsed it to the outputs that print it: crash,
/// termination and resource reports and MetricKit diagnostics give frames as values, and events
/// carry them as values (`EventDetails.crash`, `EventDetails.backtrace`), through the spill and into
/// rules, triage and reports. Text is made in one place (`text`, the `INDEX IMAGE ADDRESS SYMBOL`
/// line that outputs print) and read in one place (`init?(text:)`, for frames that only exist as text,
/// such as the backtrace lines of a console log).
public struct CrashFrame: Sendable, Equatable, Hashable {
    /// Position of the frame in its backtrace (the number written in text reports, the array
    /// position in `.ips` files); 0 is the innermost frame.
    public var index: Int
    /// Binary image the frame belongs to (`libsystem_kernel.dylib`, `UIKitCore`, the app's
    /// executable, or a bundle identifier in PLCrashReporter reports). `nil` when unknown,
    /// e.g. an `.ips` frame whose `usedImages` entry has no name.
    public var image: String?
    /// Symbol without the `+ offset` suffix, e.g. `-[UIWindow _mainQueue_makeKeyAndVisible]`.
    /// `nil` for unsymbolicated frames (`0x1017ff000 + 117776`, `MyApp + 27920`, `???`).
    /// A frame read from text (`init?(text:)`) keeps the text after its address as written.
    public var symbol: String?
    /// Instruction address as written (`0x00000001b3a2e0dc`); for `.ips` frames the image base
    /// plus `imageOffset` in lower-case hex. `nil` when it cannot be known.
    public var address: String?
    /// Offset into the image, when the report gives one instead of a symbol (MetricKit's
    /// `offsetIntoBinaryTextSegment`, a microstackshot's `(Orbit + 352120)`).
    public var offset: Int?
    /// The image's UUID as the report gives it (`.ips` `usedImages[].uuid`), for symbolication.
    public var imageUUID: String?
    /// The image's load address (`.ips` `usedImages[].base`), for symbolication.
    public var imageBase: UInt64?
    /// The image's architecture (`arm64e`), when the report says.
    public var arch: String?
    /// Source file and line of the frame, when the report gives them (`.ips` `sourceFile`,
    /// `sourceLine`).
    public var file: String?
    public var line: Int?

    /// Creates a frame.
    /// - Parameters:
    ///   - index: Position in the backtrace (0 = innermost).
    ///   - image: Binary image name, if known.
    ///   - symbol: Symbol without offset, if symbolicated.
    ///   - address: Instruction address in hex, if known.
    ///   - offset: Offset into the image, if given instead of a symbol.
    public init(index: Int, image: String? = nil, symbol: String? = nil, address: String? = nil, offset: Int? = nil,
                imageUUID: String? = nil, imageBase: UInt64? = nil, arch: String? = nil, file: String? = nil, line: Int? = nil) {
        self.index = index
        self.image = image
        self.symbol = symbol
        self.address = address
        self.offset = offset
        self.imageUUID = imageUUID
        self.imageBase = imageBase
        self.arch = arch
        self.file = file
        self.line = line
    }
}

// MARK: - Text

extension CrashFrame {
    /// What the frame says after its address: the symbol, or `IMAGE + OFFSET` for an unsymbolicated
    /// frame with an offset (as text crash reports write it); nil when neither is known.
    public var location: String? {
        symbol ?? offset.map { "\(image ?? "???") + \($0)" }
    }

    /// `INDEX IMAGE ADDRESS SYMBOL`, parts absent when unknown: the one spelling of a frame that
    /// outputs print (JSON `details.backtrace`, `appFrames`, `lifecycleFrames`, `firstAppFrame`,
    /// report excerpts, triage excerpts).
    public var text: String {
        var s = String(index)
        for part in [image, address, location] { if let part { s += " "; s += part } }
        return s
    }

    /// Reads a frame line as crash reports, Main Thread Checker and console backtraces print it:
    /// `N  image  0xADDRESS  symbol + offset` (spaces or tabs; the image may contain spaces). The image
    /// is what comes before the first hex address (nil when there is no address, or it is `???`); the
    /// symbol is the rest as written, words joined by one space, its `+ offset` or source location not
    /// split off (nil when empty). Nil for lines that are not frames (no leading number, nothing after
    /// it).
    public init?(text line: String) {
        // Split on the bytes (a Character split costs far more, and every frame of a report is read).
        let tokens = line.utf8.split(whereSeparator: { $0 == 32 || $0 == 9 }).map { Substring($0) }
        guard tokens.count >= 2, tokens[0].utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let rest = tokens.dropFirst()
        var imageText = ""
        var address: String?
        let symbolText: String
        if let k = rest.firstIndex(where: CrashFrame.isHexAddress) {
            imageText = rest[..<k].joined(separator: " ")
            address = String(rest[k])
            symbolText = rest[(k + 1)...].joined(separator: " ")
        } else {
            // No address: the image cannot be told from the symbol (an `.ips` frame whose image has no
            // base address); the whole text is the symbol.
            symbolText = rest.joined(separator: " ")
        }
        if imageText == "???" { imageText = "" }
        self.init(index: Int(tokens[0]) ?? 0, image: imageText.isEmpty ? nil : imageText,
                  symbol: symbolText.isEmpty ? nil : symbolText, address: address)
    }

    /// `0x` followed by at least one hex digit.
    public static func isHexAddress<S: StringProtocol>(_ s: S) -> Bool {
        s.count > 2 && (s.hasPrefix("0x") || s.hasPrefix("0X")) && s.dropFirst(2).allSatisfy(\.isHexDigit)
    }
}

/// A failure's stack: frames a report reader parsed, or lines a log printed under a message (a
/// console backtrace, Main Thread Checker's stack), kept as written and read as frames on demand.
public enum Backtrace: Sendable, Equatable {
    case frames([CrashFrame])
    case lines([String])

    /// The stack as text: each frame's `text`, or the lines as written.
    public var lines: [String] {
        switch self {
        case .frames(let f): f.map(\.text)
        case .lines(let l): l
        }
    }

    /// The stack as frames: the frames, or the lines that read as frames (`CrashFrame(text:)`).
    public var frames: [CrashFrame] {
        switch self {
        case .frames(let f): f
        case .lines(let l): l.compactMap(CrashFrame.init(text:))
        }
    }

    public var count: Int {
        switch self {
        case .frames(let f): f.count
        case .lines(let l): l.count
        }
    }

    public var isEmpty: Bool { count == 0 }
}
