/// The apps the system's stories are about: Apple's (bundle `com.apple.*`, installed in
/// `/Applications`) and third-party apps (in `/private/var/containers/Bundle/Application/<UUID>/`),
/// some with a space in their executable's name. None of them logs its own lifecycle, except the
/// mixed corpus's seven template apps, which the device shape adds as apps that do.
enum SystemCatalog {
    static let apple: [(String, String)] = [
        ("com.apple.mobilesafari", "MobileSafari"), ("com.apple.MobileSMS", "MobileSMS"), ("com.apple.mobilemail", "MobileMail"),
        ("com.apple.Preferences", "Preferences"), ("com.apple.camera", "Camera"), ("com.apple.mobileslideshow", "MobileSlideShow"),
        ("com.apple.Maps", "Maps"), ("com.apple.Music", "Music"), ("com.apple.weather", "Weather"), ("com.apple.mobilenotes", "MobileNotes"),
        ("com.apple.mobilecal", "MobileCal"), ("com.apple.AppStore", "AppStore"), ("com.apple.Health", "Health"),
        ("com.apple.podcasts", "Podcasts"), ("com.apple.mobiletimer", "MobileTimer"), ("com.apple.mobilephone", "MobilePhone"),
    ]

    static let thirdParty: [(String, String)] = [
        ("com.cometlabs.Comet", "Comet"), ("io.juniper.notes", "Juniper Notes"), ("com.trailmix.app", "TrailMix"),
        ("app.ledgerly.ios", "Ledgerly"), ("fm.byteradio.player", "Byte Radio"), ("com.harborbank.mobile", "Harbor"),
        ("com.kilnstudio.Kiln", "Kiln"), ("org.mosaic.reader", "MosaicReader"), ("com.orbitmaps.ios", "OrbitMaps"),
        ("com.quillwrite.app", "Quill"), ("io.sprout.garden", "Sprout"), ("com.tidepool.fitness", "Tidepool"),
        ("net.pinecone.chat", "Pinecone"), ("com.lumen.camera", "Lumen Camera"), ("co.parcelhub.track", "ParcelHub"),
        ("com.vela.weather", "Vela"), ("com.example.scanbox", "ScanBox"), ("io.metro-transit.app", "MetroTransit"),
        ("com.brightline.news", "Brightline"), ("com.cadence.workout", "Cadence"),
    ]

    /// Apple's and third-party apps that log nothing of their own (the mixed shape's stories).
    static func silentApps() -> [(bundle: String, exec: String, apple: Bool, logger: AppProcess?)] {
        apple.map { ($0.0, $0.1, true, nil) } + thirdParty.map { ($0.0, $0.1, false, nil) }
    }
}
