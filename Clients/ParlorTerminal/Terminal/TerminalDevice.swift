#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The controlling terminal: whether we have one, its size, and the full-screen mode of the interactive
/// view (raw input, the alternate screen, no cursor), always undone on the way out.
public enum TerminalDevice {
    /// Both input and output are a terminal: draw the screen and read keys.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    public static var isOutputTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Columns and rows of the terminal on stdout; 80×24 when it cannot tell.
    public static func size() -> (width: Int, height: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Enters full-screen mode; returns false when stdin is not a terminal.
    static func enterFullScreen() -> Bool {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return false }
        savedAttributes = original
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return false }
        atexit { TerminalDevice.restore() }
        StandardStreams.write(ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.clearScreen)
        return true
    }

    /// Leaves full-screen mode (safe to call more than once, and from `atexit`).
    static func restore() {
        guard var original = savedAttributes else { return }
        savedAttributes = nil
        StandardStreams.write(ANSI.resetStyle + ANSI.showCursor + ANSI.leaveAlternateScreen)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    }

    /// The terminal's settings before full-screen mode; set only on the session's task before the
    /// screen is used, read by `restore` (which `atexit` may call after that task is gone).
    nonisolated(unsafe) private static var savedAttributes: termios?
}
