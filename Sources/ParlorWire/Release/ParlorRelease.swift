/// Which Parlor this is, for `--version` on the server, the terminal client and the load generator: all
/// three are built from one tree and report one version, raised when a release is tagged. (The server's
/// `Server` header says only `Parlor`: a version there tells a scanner which bugs to try.)
public enum ParlorRelease {
    public static let version = "0.22.0"
}
