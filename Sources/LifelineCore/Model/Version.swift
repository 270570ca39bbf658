/// The version `lifeline --version` prints.
public enum LifelineVersion {
    public static let current = "0.1.0"
}
