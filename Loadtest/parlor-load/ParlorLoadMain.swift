import ParlorLoad

@main
enum ParlorLoadMain {
    static func main() async {
        await ParlorLoadCommand.main(nil)
    }
}
