// The floor under Parlor's fan-out: a SwiftNIO server that does nothing but write one shared 150-byte
// buffer to each of N loopback connections in turn and flush it, at a fixed rate, on two event loops,
// as Parlor's server writes a version to its subscribers; and a client process that holds the N
// connections and discards what it reads. The server prints its own user and system CPU per message
// (getrusage over the measured seconds).
//
//   nio-floor server N RATE SECONDS PORT     listens, waits for N connections, then writes RATE messages/s
//   nio-floor client N PORT                  opens N connections and reads until killed
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Hands each accepted connection to its event loop's list; reads are discarded.
final class Connections: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let onActive: @Sendable (Channel) -> Void
    init(onActive: @escaping @Sendable (Channel) -> Void) { self.onActive = onActive }
    func channelActive(context: ChannelHandlerContext) {
        onActive(context.channel)
        context.fireChannelActive()
    }
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}

/// One event loop's connections, touched only on that loop.
final class LoopConnections: @unchecked Sendable {
    var channels: [Channel] = []
    var next = 0
    var owed = 0.0
    var last = NIODeadline.now()
}

func cpuSeconds() -> (user: Double, system: Double) {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return (Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6,
            Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    say("usage: nio-floor server N RATE SECONDS PORT | nio-floor client N PORT")
    exit(64)
}
let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
let loops = Array(group.makeIterator())

if arguments[1] == "server", arguments.count == 6, let count = Int(arguments[2]), let rate = Int(arguments[3]),
    let seconds = Double(arguments[4]), let port = Int(arguments[5])
{
    let perLoop = loops.map { ObjectIdentifier($0) }
    let lists = loops.map { _ in LoopConnections() }
    let accepted = NIOLockedValueBox(0)
    let server = try ServerBootstrap(group: group)
        .serverChannelOption(.backlog, value: 4096)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelInitializer { channel in
            channel.pipeline.addHandler(Connections { channel in
                lists[perLoop.firstIndex(of: ObjectIdentifier(channel.eventLoop))!].channels.append(channel)
                accepted.withLockedValue { $0 += 1 }
            })
        }
        .bind(host: "127.0.0.1", port: port).wait()
    say("listening on \(server.localAddress?.port ?? port)")
    while accepted.withLockedValue({ $0 }) < count { usleep(100_000) }
    sleep(2)  // the last handshakes' work is not part of the measure
    var payload = ByteBufferAllocator().buffer(capacity: 150)
    payload.writeBytes([UInt8](repeating: 0x61, count: 150))
    let shared = payload
    let written = NIOLockedValueBox(0)
    let perLoopPerNanosecond = Double(rate) / Double(loops.count) / 1e9
    let before = cpuSeconds()
    let start = Date()
    for list in lists { list.last = .now() }
    let tasks = zip(loops, lists).map { loop, list in
        loop.scheduleRepeatedTask(initialDelay: .milliseconds(1), delay: .milliseconds(1)) { _ in
            // Owed by the time that passed, not per tick: a tick comes later than asked under load.
            let now = NIODeadline.now()
            list.owed += perLoopPerNanosecond * Double((now - list.last).nanoseconds)
            list.last = now
            var sent = 0
            while list.owed >= 1, !list.channels.isEmpty {
                let channel = list.channels[list.next % list.channels.count]
                list.next += 1
                channel.write(shared, promise: nil)
                channel.flush()
                list.owed -= 1
                sent += 1
            }
            written.withLockedValue { $0 += sent }
        }
    }
    Thread.sleep(forTimeInterval: seconds)
    for task in tasks { task.cancel() }
    let elapsed = Date().timeIntervalSince(start)
    let after = cpuSeconds()
    let messages = Double(written.withLockedValue { $0 })
    let user = (after.user - before.user) / messages * 1e6, system = (after.system - before.system) / messages * 1e6
    say(String(format: "%.0f messages in %.1f s (%.0f/s) to %d connections", messages, elapsed, messages / elapsed, count))
    say(String(format: "per message: user %.2f µs, system %.2f µs, total %.2f µs (%.2f cores)",
               user, system, user + system, (user + system) * messages / elapsed / 1e6))
    exit(0)
} else if arguments[1] == "client", let count = Int(arguments[2]), let port = Int(arguments[3]) {
    var channels: [Channel] = []
    for _ in 0..<count {
        channels.append(try ClientBootstrap(group: group)
            .channelInitializer { $0.pipeline.addHandler(Connections { _ in }) }
            .connect(host: "127.0.0.1", port: port).wait())
    }
    say("connected \(channels.count)")
    while true { sleep(60) }
} else {
    say("usage: nio-floor server N RATE SECONDS PORT | nio-floor client N PORT")
    exit(64)
}
