import NIOConcurrencyHelpers
import NIOCore
import Synchronization
import SystemTLS

/// Remembers how a connection ended (the first status recorded wins) and whether it is writable.
/// Shared between the channel handler (on its event loop) and the connection's users on any thread.
final class WebSocketCloseRecorder: Sendable {
    private let status = NIOLockedValueBox<WebSocketCloseStatus?>(nil)
    /// The channel's writability as its last change reported it: one relaxed load to read, where asking
    /// the channel costs a copy of its write queue's state.
    let writable = Atomic<Bool>(true)

    func record(_ newStatus: WebSocketCloseStatus) {
        status.withLockedValue { if $0 == nil { $0 = newStatus } }
    }

    var recorded: WebSocketCloseStatus? { status.withLockedValue { $0 } }
}

/// The NIO shell around ``WebSocketFrameDecoder`` and ``WebSocketConnectionStateMachine``: it turns bytes
/// into messages for its ``WebSocketReceiver`` and messages into frames, runs keepalive, idle and close
/// timers, and stops reading from a peer that does not read what we send (or whose messages the
/// receiver has not caught up with).
final class WebSocketChannelHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = Never
    typealias OutboundIn = WebSocketOutbound
    typealias OutboundOut = ByteBuffer

    /// Payloads at least this big are written as a separate buffer after their header instead of being
    /// copied behind it.
    private static let separatePayloadThreshold = 16 * 1024

    private let role: WebSocketRole
    private let configuration: WebSocketConfiguration
    private let deflate: NegotiatedDeflate?
    private let closeRecorder: WebSocketCloseRecorder
    /// Who is told what arrives; set before the handler joins the pipeline, let go when the connection
    /// closes (the receiver usually holds the connection, which holds this handler).
    var receiver: (any WebSocketReceiver)?
    private let decoder: WebSocketFrameDecoder
    private var machine: WebSocketConnectionStateMachine
    private var cumulation: ByteBuffer?
    /// Our compressor when we keep context between messages; otherwise the thread's shared one is used.
    private var contextDeflater: ZlibDeflater?
    private var context: ChannelHandlerContext?
    /// This loop's batch of connections to flush, and whether we are in it.
    private var flushBatch: WebSocketFlushBatch?
    private var flushQueued = false
    /// A read was held back while the peer was not reading our writes.
    private var pendingRead = false
    /// The receiver asked us to stop reading until it catches up.
    private var receiverPaused = false
    /// A read was held back while the receiver was paused.
    private var heldRead = false
    /// Input after a protocol violation is ignored.
    private var failed = false
    /// The violation the connection fails with once the receiver has answered what came before it.
    private var pendingFailure: WebSocketProtocolError?
    private var lastReceived = NIODeadline.now()
    private var timersStarted = false
    private var keepaliveTimer: Scheduled<Void>?
    private var closeTimer: Scheduled<Void>?
    private var failureTimer: Scheduled<Void>?

    init(
        role: WebSocketRole, configuration: WebSocketConfiguration, deflate: NegotiatedDeflate?,
        closeRecorder: WebSocketCloseRecorder
    ) {
        self.role = role
        self.configuration = configuration
        self.deflate = deflate
        self.closeRecorder = closeRecorder
        decoder = WebSocketFrameDecoder(
            role: role, maxFrameSize: configuration.maxFrameSize, allowedReservedBits: deflate == nil ? 0 : 0x40)
        machine = WebSocketConnectionStateMachine(
            role: role, maxMessageSize: configuration.maxMessageSize,
            maxDecompressedSize: configuration.maxDecompressedMessageSize, deflate: deflate)
    }

    // MARK: Lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        flushBatch = WebSocketFlushBatch.of(context.eventLoop)
        guard context.channel.isActive else {
            // The peer left during the upgrade: this handler will never see channelInactive, so the
            // connection is over before it began.
            closeRecorder.record(.abnormal)
            endReceiving()
            return
        }
        startTimers(context: context)
    }

    func channelActive(context: ChannelHandlerContext) {
        startTimers(context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimers()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimers()
        machine.connectionClosed()
        cumulation = nil
        closeRecorder.record(.abnormal)
        endReceiving()
        context.fireChannelInactive()
    }

    /// Tells the receiver the connection is over and lets go of it.
    private func endReceiving() {
        let receiver = self.receiver
        self.receiver = nil
        receiver?.closed(closeRecorder.recorded ?? .abnormal)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // Transport errors (a reset, a TLS failure) end the connection without a close handshake: 1006.
        closeRecorder.record(WebSocketCloseStatus(code: .abnormalClosure, reason: "\(error)"))
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ServerShutdownEvent {
            receiver?.serverShuttingDown()
            return
        }
        guard event is ServerGoingAwayEvent else { return context.fireUserInboundEventTriggered(event) }
        guard machine.sendingClose() else { return }
        closeRecorder.record(WebSocketCloseStatus(code: .goingAway, reason: "server shutting down"))
        let payload = WebSocketFrameEncoder.closePayload(
            code: .goingAway, reason: "server shutting down", allocator: context.channel.allocator)
        writeControl(.close, payload: payload, context: context, promise: nil)
        context.flush()
        scheduleCloseTimeout(context: context)
        context.read()
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastReceived = context.eventLoop.now
        guard !failed, machine.closeState != .closed else { return }
        var incoming = unwrapInboundIn(data)
        var buffer: ByteBuffer
        if var existing = cumulation {
            cumulation = nil
            existing.writeBuffer(&incoming)
            buffer = existing
        } else {
            buffer = incoming
        }
        while true {
            let frame: WebSocketFrame?
            do {
                frame = try decoder.decode(&buffer)
            } catch {
                violated(context: context, error)
                return
            }
            guard let frame else { break }
            perform(machine.received(frame, allocator: context.channel.allocator), context: context)
            if failed || machine.closeState == .closed { return }
        }
        guard buffer.readableBytes > 0 else { return }
        // A frame still arriving: what has come of a text frame is validated now, not when it completes.
        if let header = try? decoder.decodeHeader(buffer), buffer.readableBytes > header.size {
            let payload = buffer.getSlice(
                at: buffer.readerIndex + header.size, length: buffer.readableBytes - header.size) ?? ByteBuffer()
            perform(machine.receivedPartialPayload(header, payload: payload), context: context)
            if failed { return }
        }
        if buffer.readerIndex > 64 * 1024 { buffer.discardReadBytes() }
        cumulation = buffer
    }

    private func perform(_ action: WebSocketConnectionStateMachine.Action, context: ChannelHandlerContext) {
        switch action {
        case .none, .pongReceived:
            break
        case .deliver(let message):
            if receiver?.received(message) == .pause { receiverPaused = true }
        case .sendPong(let payload):
            writeControl(.pong, payload: payload, context: context, promise: nil)
            context.flush()
        case .echoClose(let status):
            closeRecorder.record(status)
            // Echo the peer's code; a close without a code is answered without one (§5.5.1).
            let payload =
                status.code == .noStatusReceived
                ? context.channel.allocator.buffer(capacity: 0)
                : WebSocketFrameEncoder.closePayload(code: status.code, reason: "", allocator: context.channel.allocator)
            let written = context.eventLoop.makePromise(of: Void.self)
            writeControl(.close, payload: payload, context: context, promise: written)
            context.flush()
            finishClose(context: context, after: written.futureResult)
        case .closeHandshakeComplete:
            finishClose(context: context, after: context.eventLoop.makeSucceededVoidFuture())
        case .fail(let error):
            violated(context: context, error)
        }
    }

    /// After the close handshake: the server closes TCP first (so it, not the client, holds TIME_WAIT);
    /// a client waits for that, up to the close timeout (RFC 6455 §7.1.1).
    private func finishClose(context: ChannelHandlerContext, after written: EventLoopFuture<Void>) {
        switch role {
        case .server:
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        case .client:
            scheduleCloseTimeout(context: context)
        }
    }

    /// The peer broke the protocol. Nothing more it sent is processed, but the messages delivered before
    /// the violation are answered first: the connection fails once the receiver says it has answered
    /// them (at once when it holds nothing), or after the close timeout.
    private func violated(context: ChannelHandlerContext, _ error: WebSocketProtocolError) {
        failed = true
        cumulation = nil
        pendingFailure = error
        if let receiver {
            receiver.receivedProtocolViolation()
        } else {
            proceedWithFailure()
        }
        guard pendingFailure != nil, failureTimer == nil else { return }
        failureTimer = context.eventLoop.assumeIsolated().scheduleTask(in: configuration.closeTimeout) {
            self.proceedWithFailure()
        }
    }

    /// Fails the connection with the pending violation: close frame with its code, then close (RFC 6455
    /// §7.1.7).
    func proceedWithFailure() {
        guard let error = pendingFailure, let context else { return }
        pendingFailure = nil
        failureTimer?.cancel()
        failureTimer = nil
        closeRecorder.record(WebSocketCloseStatus(code: error.closeCode, reason: error.reason))
        guard machine.sendingClose() else {
            context.close(promise: nil)
            return
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        let payload = WebSocketFrameEncoder.closePayload(
            code: error.closeCode, reason: error.reason, allocator: context.channel.allocator)
        writeControl(.close, payload: payload, context: context, promise: written)
        context.flush()
        written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    // MARK: Outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        write(unwrapOutboundIn(data), context: context, promise: promise)
    }

    /// A write from the connection's owner on the event loop: straight to this handler, without the trip
    /// through the pipeline from its tail.
    func write(_ outbound: WebSocketOutbound) {
        guard let context else { return }
        write(outbound, context: context, promise: nil)
    }

    /// Flushes once the work already queued on the loop has run (see ``WebSocketFlushBatch``).
    func flushSoon() {
        guard !flushQueued, let flushBatch, context != nil else { return }
        flushQueued = true
        flushBatch.add(self)
    }

    /// The batch's flush.
    func flushNow() {
        flushQueued = false
        context?.flush()
    }

    private func write(_ outbound: WebSocketOutbound, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        switch outbound {
        case .message(let message):
            guard machine.isOpen else { return promise?.fail(WebSocketError.closed) ?? () }
            writeMessage(message, context: context, promise: promise)
        case .prepared(let prepared):
            guard machine.isOpen else { return promise?.fail(WebSocketError.closed) ?? () }
            if role == .server {
                context.write(
                    wrapOutboundOut(prepared.serverFrame(deflate: deflate, allocator: context.channel.allocator)),
                    promise: promise)
            } else {
                writeMessage(prepared.message, context: context, promise: promise)
            }
        case .ping(let payload):
            guard machine.isOpen else { return promise?.fail(WebSocketError.closed) ?? () }
            guard payload.readableBytes <= 125 else {
                return promise?.fail(WebSocketError.controlPayloadTooLarge) ?? ()
            }
            writeControl(.ping, payload: payload, context: context, promise: promise)
        case .close(let code, let reason):
            guard machine.sendingClose() else { return promise?.succeed(()) ?? () }
            closeRecorder.record(WebSocketCloseStatus(code: code, reason: reason))
            let payload = WebSocketFrameEncoder.closePayload(code: code, reason: reason, allocator: context.channel.allocator)
            writeControl(.close, payload: payload, context: context, promise: promise)
            scheduleCloseTimeout(context: context)
            // The peer's answer must be read even if the application has stopped consuming messages.
            context.read()
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        if machine.closeState == .closeSent { context.read() }
    }

    private func writeMessage(_ message: WebSocketMessage, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        let allocator = context.channel.allocator
        var payload = message.data
        var rsv1 = false
        if let deflate, payload.readableBytes >= deflate.minimumMessageSize {
            if deflate.ourNoContextTakeover {
                if let compressed = try? ZlibThreadCache.forThisThread.compressWithoutContext(
                    payload, windowBits: deflate.ourWindowBits, level: deflate.compressionLevel, allocator: allocator),
                    compressed.readableBytes < payload.readableBytes
                {
                    payload = compressed
                    rsv1 = true
                }
            } else if let deflater = contextDeflater ?? makeContextDeflater(deflate) {
                // With context takeover the peer's window must see every message we compressed, so the
                // compressed form is sent even when it is not smaller.
                payload = deflater.compress(payload, allocator: allocator)
                rsv1 = true
            }
        }
        let maskingKey = role == .client ? WebSocketMaskingKey(packed: SecureRandom.maskingKey()) : nil
        if maskingKey == nil && payload.readableBytes >= Self.separatePayloadThreshold {
            var header = allocator.buffer(capacity: WebSocketFrameEncoder.maxHeaderSize)
            WebSocketFrameEncoder.writeHeader(
                into: &header, rsv1: rsv1, opcode: message.opcode, payloadLength: payload.readableBytes)
            context.write(wrapOutboundOut(header), promise: nil)
            context.write(wrapOutboundOut(payload), promise: promise)
        } else {
            let frame = WebSocketFrameEncoder.encode(
                rsv1: rsv1, opcode: message.opcode, payload: payload, maskingKey: maskingKey, allocator: allocator)
            context.write(wrapOutboundOut(frame), promise: promise)
        }
    }

    private func makeContextDeflater(_ deflate: NegotiatedDeflate) -> ZlibDeflater? {
        contextDeflater = try? ZlibDeflater(windowBits: deflate.ourWindowBits, level: Int32(deflate.compressionLevel))
        return contextDeflater
    }

    private func writeControl(
        _ opcode: WebSocketOpcode, payload: ByteBuffer, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?
    ) {
        let maskingKey = role == .client ? WebSocketMaskingKey(packed: SecureRandom.maskingKey()) : nil
        let frame = WebSocketFrameEncoder.encode(
            opcode: opcode, payload: payload, maskingKey: maskingKey, allocator: context.channel.allocator)
        context.write(wrapOutboundOut(frame), promise: promise)
    }

    // MARK: Backpressure

    func read(context: ChannelHandlerContext) {
        // After a violation nothing more from the peer is processed; reading it would only cost.
        if failed && machine.isOpen { return }
        // A peer that does not read what we send gets nothing more read from it until it catches up,
        // so its requests cannot pile up replies in our memory. During the close handshake we keep
        // reading to see the peer's close frame.
        if !context.channel.isWritable && machine.isOpen {
            pendingRead = true
            return
        }
        // A receiver that is behind holds reads too; it asks for the next read once it catches up.
        if receiverPaused && machine.isOpen {
            heldRead = true
            return
        }
        context.read()
    }

    /// Makes `receiver` the connection's receiver in place of the current one, replaying first the
    /// messages that one had not handed on (and the violation waiting behind them, if any).
    func adopt(_ receiver: any WebSocketReceiver, replaying messages: [WebSocketMessage], violation: Bool) {
        guard context?.channel.isActive == true else {
            receiver.closed(closeRecorder.recorded ?? .abnormal)
            return
        }
        self.receiver = receiver
        receiverPaused = false
        for message in messages where receiver.received(message) == .pause { receiverPaused = true }
        if violation { receiver.receivedProtocolViolation() }
        if !receiverPaused { resumeReading() }
    }

    /// The receiver caught up after asking to pause.
    func resumeReading() {
        receiverPaused = false
        guard heldRead, let context else { return }
        heldRead = false
        read(context: context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        let writable = context.channel.isWritable
        closeRecorder.writable.store(writable, ordering: .relaxed)
        receiver?.writabilityChanged(isWritable: writable)
        if writable && pendingRead {
            pendingRead = false
            read(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    // MARK: Timers

    private var keepaliveTick: TimeAmount? {
        switch (configuration.pingInterval, configuration.idleTimeout) {
        case (nil, nil): nil
        case (let ping?, nil): ping
        case (nil, let idle?): .nanoseconds(max(idle.nanoseconds / 2, 1_000_000))
        case (let ping?, let idle?): .nanoseconds(max(min(ping.nanoseconds, idle.nanoseconds / 2), 1_000_000))
        }
    }

    private func startTimers(context: ChannelHandlerContext) {
        guard !timersStarted else { return }
        timersStarted = true
        lastReceived = context.eventLoop.now
        scheduleKeepalive(context: context)
    }

    private func scheduleKeepalive(context: ChannelHandlerContext) {
        guard let tick = keepaliveTick else { return }
        keepaliveTimer = context.eventLoop.assumeIsolated().scheduleTask(in: tick) {
            self.keepalive(context: context)
        }
    }

    private func keepalive(context: ChannelHandlerContext) {
        guard context.channel.isActive, machine.isOpen else { return }
        let silence = context.eventLoop.now - lastReceived
        if let idle = configuration.idleTimeout, silence >= idle {
            // The peer is gone or stuck: say so if it is still listening, then drop it.
            closeRecorder.record(WebSocketCloseStatus(code: .goingAway, reason: "idle timeout"))
            _ = machine.sendingClose()
            let payload = WebSocketFrameEncoder.closePayload(
                code: .goingAway, reason: "idle timeout", allocator: context.channel.allocator)
            writeControl(.close, payload: payload, context: context, promise: nil)
            context.flush()
            context.close(promise: nil)
            return
        }
        if let ping = configuration.pingInterval, silence >= ping {
            writeControl(.ping, payload: context.channel.allocator.buffer(capacity: 0), context: context, promise: nil)
            context.flush()
        }
        scheduleKeepalive(context: context)
    }

    private func scheduleCloseTimeout(context: ChannelHandlerContext) {
        guard closeTimer == nil else { return }
        closeTimer = context.eventLoop.assumeIsolated().scheduleTask(in: configuration.closeTimeout) {
            context.close(promise: nil)
        }
    }

    private func cancelTimers() {
        keepaliveTimer?.cancel()
        keepaliveTimer = nil
        closeTimer?.cancel()
        closeTimer = nil
        failureTimer?.cancel()
        failureTimer = nil
    }
}
