/// Arguments whose fields are all optional, so `args` may be left out entirely.
public protocol DefaultArguments {
    init()
}
