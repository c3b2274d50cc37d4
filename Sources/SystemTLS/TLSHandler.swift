import CSystemTLS
import NIOCore

/// TLS over the system OpenSSL for one connection, as a channel handler: ciphertext on the network side,
/// plaintext `ByteBuffer`s on the application side. Make one with `TLSServerContext.makeServerHandler()` or
/// `TLSClientContext.makeClientHandler(serverHostname:)` and add it first in the pipeline.
///
/// - The handshake starts when the channel becomes active (or when the handler is added to an active channel),
///   and asks for reads itself, so it also progresses with `autoRead` off.
/// - Plaintext written before the handshake finishes is kept (up to `maximumBufferedHandshakeWrites` bytes) and
///   encrypted and written, in order and with the same flushes, once it finishes; going past that limit fails the
///   connection with `.bufferLimitExceeded`. A write's promise completes when the ciphertext it produced has been
///   written by the channel.
/// - When the handshake finishes the handler fires `TLSEvent.handshakeCompleted` as a user inbound event.
/// - `close()` sends close_notify, and closes the connection once that is written (or after `shutdownTimeout`);
///   it does not wait for the peer's close_notify. A received close_notify is answered and the connection closed.
///   Half-closing the output (`close(mode: .output)`) is not supported; closing the input is passed on.
/// - Every failure is fired as a `TLSError` through `errorCaught`, then the connection is closed: a failed handshake
///   (with OpenSSL's reason, and the X.509 verify result for a certificate), a handshake timeout, a fatal error
///   after the handshake, and a TCP end of stream without close_notify (`.uncleanShutdown`, possible truncation).
///
/// The handler must be used only on its channel's event loop, and is not `Sendable`.
public final class TLSHandler: ChannelDuplexHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    enum Role {
        case server
        case client
    }

    private enum State {
        /// Added, but the connection is not active yet.
        case idle
        case handshaking
        case active
        /// Our close_notify is on its way; the connection closes once it has been written.
        case closing
        /// Finished: closed cleanly, or failed with the error already reported.
        case closed
    }

    private struct BufferedWrite {
        var data: ByteBuffer
        var promise: EventLoopPromise<Void>?
    }

    /// The largest plaintext in one TLS record.
    static let maximumRecordPlaintext = 16 * 1024
    /// Bytes of plaintext handed to one `SSL_write` (one record), so that the write BIO, whose memory grows to its
    /// largest content and stays, never holds more than one record of ciphertext.
    static let writeSlice = maximumRecordPlaintext
    /// Bytes of ciphertext handed to the read BIO at a time (a full record with its header and expansion fits), so that
    /// it holds little more than one record however large the channel's reads are.
    static let feedSlice = 17 * 1024
    /// An upper bound of the bytes a record adds to its plaintext (TLS 1.2 GCM: header 5 + explicit nonce 8 + tag 16).
    static let recordOverhead = 29

    /// The connection's `SSL`. It owns both memory BIOs; freed in `deinit`.
    let ssl: OpaquePointer
    /// Ciphertext from the network, for OpenSSL to read.
    private let readBIO: OpaquePointer
    /// Ciphertext OpenSSL produced, for the network.
    private let writeBIO: OpaquePointer
    private let role: Role
    /// Keeps the `SSL_CTX` (and its configuration) alive as long as this connection.
    private let sslContext: SSLContextBox
    private let settings: TLSHandlerSettings

    private var state: State = .idle
    /// Writes issued before the handshake finished, oldest first.
    private var bufferedWrites = CircularBuffer<BufferedWrite>()
    private var bufferedWriteBytes = 0
    /// How many of `bufferedWrites`, from the front, a flush has covered.
    private var bufferedWritesFlushed = 0
    /// True while the buffered writes are being encrypted; writes arriving meanwhile queue behind them.
    private var drainingBufferedWrites = false
    /// Where `SSL_read` decrypts into: one record's worth, reused while no one else holds on to its storage.
    private var plaintextScratch: ByteBuffer?
    /// The next handler asked for a read and has not been given plaintext since.
    private var readRequested = false
    /// Plaintext was fired since the last `channelReadComplete`.
    private var deliveredSinceReadComplete = false
    /// The handshake timeout or the close_notify timeout.
    private var timer: Scheduled<Void>?
    /// Completes when the connection has closed after a close we started.
    private var closePromise: EventLoopPromise<Void>?
    private var closeIssued = false

    init(context: SSLContextBox, role: Role, settings: TLSHandlerSettings) {
        ERR_clear_error()
        // SSL_new and BIO_new fail only when memory runs out.
        guard let ssl = SSL_new(context.pointer) else {
            fatalError("SSL_new failed: \(takeOpenSSLErrors())")
        }
        var readBIO: OpaquePointer?
        var writeBIO: OpaquePointer?
        guard parlor_tls_ssl_attach_memory_bios(ssl, &readBIO, &writeBIO) == 1, let readBIO, let writeBIO else {
            SSL_free(ssl)
            fatalError("BIO_new failed: \(takeOpenSSLErrors())")
        }
        switch role {
        case .server: SSL_set_accept_state(ssl)
        case .client: SSL_set_connect_state(ssl)
        }
        self.ssl = ssl
        self.readBIO = readBIO
        self.writeBIO = writeBIO
        self.role = role
        self.sslContext = context
        self.settings = settings
    }

    deinit {
        SSL_free(ssl)
    }

    // MARK: Lifecycle

    public func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive {
            beginHandshake(context: context)
        }
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimer()
        state = .closed
        failBufferedWrites(ChannelError.ioOnClosedChannel)
    }

    public func channelActive(context: ChannelHandlerContext) {
        beginHandshake(context: context)
        context.fireChannelActive()
    }

    public func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        let error: TLSError?
        switch state {
        case .idle, .closed:
            error = nil
        case .handshaking:
            error = TLSError(kind: .handshakeFailed, reason: "the connection closed during the handshake")
        case .active:
            error = TLSError(
                kind: .uncleanShutdown, reason: "the peer ended the TCP connection without sending close_notify")
        case .closing:
            error = nil
            if !closeIssued {
                // The connection went away before our close_notify was written: the close we started is done.
                closeIssued = true
                closePromise?.succeed(())
            }
        }
        state = .closed
        failBufferedWrites(error ?? ChannelError.ioOnClosedChannel)
        if let error {
            context.fireErrorCaught(error)
        }
        context.fireChannelInactive()
    }

    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            switch state {
            case .handshaking:
                fail(context: context, TLSError(kind: .handshakeFailed, reason: "the peer ended the connection during the handshake"))
                return
            case .active:
                fail(
                    context: context,
                    TLSError(kind: .uncleanShutdown, reason: "the peer ended the TCP connection without sending close_notify"))
                return
            case .idle, .closing, .closed:
                break
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: Inbound

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let ciphertext = Self.unwrapInboundIn(data)
        switch state {
        case .closing, .closed:
            return  // we are closing: nothing more is read
        case .idle:
            beginHandshake(context: context)
        case .handshaking, .active:
            break
        }
        var remaining = ciphertext
        while remaining.readableBytes > 0, state == .handshaking || state == .active {
            let slice = remaining.readSlice(length: min(remaining.readableBytes, Self.feedSlice))!
            guard feed(slice) else {
                fail(context: context, TLSError.fromQueue(.protocolError, fallback: "BIO_write failed"))
                return
            }
            if state == .handshaking {
                driveHandshake(context: context)
            }
            if state == .active {
                readPlaintext(context: context)
            }
        }
    }

    public func channelReadComplete(context: ChannelHandlerContext) {
        switch state {
        case .idle, .handshaking:
            // The handshake needs the peer's next flight whatever autoRead says.
            context.read()
        case .active:
            // The read the next handler asked for produced no plaintext (a partial record, or only TLS
            // housekeeping): ask again on its behalf.
            if readRequested {
                context.read()
            }
        case .closing, .closed:
            break
        }
        if deliveredSinceReadComplete {
            deliveredSinceReadComplete = false
            context.fireChannelReadComplete()
        }
    }

    // MARK: Outbound

    public func read(context: ChannelHandlerContext) {
        readRequested = true
        context.read()
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let plaintext = Self.unwrapOutboundIn(data)
        switch state {
        case .idle, .handshaking:
            buffer(context: context, plaintext, promise: promise)
        case .active:
            if drainingBufferedWrites {
                buffer(context: context, plaintext, promise: promise)
            } else {
                encryptAndWrite(context: context, plaintext, promise: promise)
            }
        case .closing, .closed:
            promise?.fail(ChannelError.ioOnClosedChannel)
        }
    }

    public func flush(context: ChannelHandlerContext) {
        switch state {
        case .idle, .handshaking:
            bufferedWritesFlushed = bufferedWrites.count
        case .active where drainingBufferedWrites:
            if bufferedWrites.isEmpty {
                context.flush()
            } else {
                bufferedWritesFlushed = bufferedWrites.count
            }
        case .active, .closing, .closed:
            context.flush()
        }
    }

    public func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        switch mode {
        case .input:
            context.close(mode: .input, promise: promise)
            return
        case .output:
            promise?.fail(ChannelError.operationUnsupported)
            return
        case .all:
            break
        }
        switch state {
        case .idle, .handshaking:
            state = .closed
            cancelTimer()
            failBufferedWrites(ChannelError.ioOnClosedChannel)
            closeIssued = true
            context.close(mode: .all, promise: promise)
        case .active:
            beginShutdown(context: context, promise: promise)
        case .closing, .closed:
            if let closePromise {
                if let promise { closePromise.futureResult.cascade(to: promise) }
            } else {
                context.close(mode: .all, promise: promise)
            }
        }
    }

    // MARK: Handshake

    private func beginHandshake(context: ChannelHandlerContext) {
        guard state == .idle else { return }
        state = .handshaking
        if let timeout = settings.handshakeTimeout {
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
                guard self.state == .handshaking else { return }
                self.fail(
                    context: context,
                    TLSError(kind: .handshakeTimeout, reason: "no complete handshake within \(timeout)"))
            }
        }
        driveHandshake(context: context)
        if state == .handshaking {
            context.read()
        }
    }

    private func driveHandshake(context: ChannelHandlerContext) {
        ERR_clear_error()
        let rc = SSL_do_handshake(ssl)
        if rc == 1 {
            handshakeCompleted(context: context)
            return
        }
        let code = SSL_get_error(ssl, rc)
        if code == SSL_ERROR_WANT_READ {
            writeNetworkOutput(context: context)
            return
        }
        fail(context: context, handshakeError(code: code))
    }

    private func handshakeError(code: Int32) -> TLSError {
        let reason = takeOpenSSLErrors()
        let verifying = (SSL_get_verify_mode(ssl) & SSL_VERIFY_PEER) != 0
        let verifyResult = SSL_get_verify_result(ssl)
        if verifying, verifyResult != Int(X509_V_OK) {
            let text = X509_verify_cert_error_string(verifyResult).map { String(cString: $0) } ?? "error \(verifyResult)"
            return TLSError(
                kind: .certificateVerificationFailed, reason: reason.isEmpty ? "certificate verify failed" : reason,
                verifyResult: text)
        }
        return TLSError(kind: .handshakeFailed, reason: reason.isEmpty ? "SSL_do_handshake failed (SSL_get_error \(code))" : reason)
    }

    private func handshakeCompleted(context: ChannelHandlerContext) {
        state = .active
        cancelTimer()
        writeNetworkOutput(context: context)

        // Writes issued during the handshake go first, with the flushes they were given.
        writeBufferedWrites(context: context)
        guard state == .active else { return }

        var alpnData: UnsafePointer<UInt8>?
        var alpnLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &alpnData, &alpnLength)
        let alpn = alpnData.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(alpnLength)), as: UTF8.self) }
        let serverName = parlor_tls_ssl_server_name(ssl).map { String(cString: $0) }
        let version = SSL_get_version(ssl).map { String(cString: $0) } ?? "unknown"
        context.fireUserInboundEventTriggered(
            TLSEvent.handshakeCompleted(negotiatedALPN: alpn, serverName: serverName, protocolVersion: version))
    }

    // MARK: Reading

    /// Hands ciphertext to OpenSSL's read BIO, which holds at most one partial record after `readPlaintext`.
    private func feed(_ ciphertext: ByteBuffer) -> Bool {
        ciphertext.withUnsafeReadableBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = BIO_write(readBIO, bytes.baseAddress! + offset, Int32(clamping: bytes.count - offset))
                guard written > 0 else { return false }
                offset += Int(written)
            }
            return true
        }
    }

    /// Decrypts everything the read BIO holds, firing plaintext in chunks of up to one record's worth.
    private func readPlaintext(context: ChannelHandlerContext) {
        var scratch = plaintextScratch ?? context.channel.allocator.buffer(capacity: Self.maximumRecordPlaintext)
        plaintextScratch = nil
        defer {
            if state == .active || state == .closing { plaintextScratch = scratch }
        }
        while state == .active {
            if scratch.writableBytes == 0 {
                deliver(context: context, &scratch)
                continue
            }
            ERR_clear_error()
            var rc: Int32 = 0
            scratch.writeWithUnsafeMutableBytes(minimumWritableBytes: 0) { space in
                rc = SSL_read(ssl, space.baseAddress, Int32(clamping: space.count))
                return rc > 0 ? Int(rc) : 0
            }
            if rc > 0 { continue }
            let code = SSL_get_error(ssl, rc)
            // Taken before delivering: the next handlers may use OpenSSL (and clear its error queue) meanwhile.
            let failure =
                code == SSL_ERROR_WANT_READ || code == SSL_ERROR_ZERO_RETURN
                ? nil : TLSError.fromQueue(.protocolError, fallback: "SSL_read failed (SSL_get_error \(code))")
            deliver(context: context, &scratch)
            switch code {
            case SSL_ERROR_WANT_READ:
                // Anything OpenSSL wrote while reading (a key update, an alert) goes out now.
                if state == .active { writeNetworkOutput(context: context) }
                return
            case SSL_ERROR_ZERO_RETURN:
                // The peer's close_notify: answer it and close.
                if state == .active { beginShutdown(context: context, promise: nil) }
                return
            default:
                if state == .active, let failure {
                    fail(context: context, failure)
                }
                return
            }
        }
    }

    private func deliver(context: ChannelHandlerContext, _ scratch: inout ByteBuffer) {
        guard scratch.readableBytes > 0 else { return }
        readRequested = false
        deliveredSinceReadComplete = true
        context.fireChannelRead(Self.wrapInboundOut(scratch))
        // Reuses the storage unless the next handler kept the buffer, in which case this allocates afresh.
        scratch.clear()
    }

    // MARK: Writing

    /// Keeps a write until the handshake finishes. Past the limit the connection fails: dropping one write and
    /// sending the next would corrupt the stream.
    private func buffer(context: ChannelHandlerContext, _ plaintext: ByteBuffer, promise: EventLoopPromise<Void>?) {
        guard bufferedWriteBytes + plaintext.readableBytes <= settings.maximumBufferedHandshakeWrites else {
            let error = TLSError(
                kind: .bufferLimitExceeded,
                reason: "more than \(settings.maximumBufferedHandshakeWrites) bytes written before the handshake finished")
            promise?.fail(error)
            fail(context: context, error)
            return
        }
        bufferedWriteBytes += plaintext.readableBytes
        bufferedWrites.append(BufferedWrite(data: plaintext, promise: promise))
    }

    private func writeBufferedWrites(context: ChannelHandlerContext) {
        guard !bufferedWrites.isEmpty else { return }
        drainingBufferedWrites = true
        defer { drainingBufferedWrites = false }
        while let write = bufferedWrites.popFirst() {
            bufferedWriteBytes -= write.data.readableBytes
            let flushAfter = bufferedWritesFlushed == 1
            bufferedWritesFlushed = max(0, bufferedWritesFlushed - 1)
            guard state == .active else {
                write.promise?.fail(ChannelError.ioOnClosedChannel)
                continue
            }
            encryptAndWrite(context: context, write.data, promise: write.promise)
            if flushAfter, state == .active {
                context.flush()
            }
        }
    }

    private func failBufferedWrites(_ error: Error) {
        bufferedWriteBytes = 0
        bufferedWritesFlushed = 0
        while let write = bufferedWrites.popFirst() {
            write.promise?.fail(error)
        }
    }

    /// Encrypts `plaintext` and writes the ciphertext, as one buffer, with `promise`.
    private func encryptAndWrite(context: ChannelHandlerContext, _ plaintext: ByteBuffer, promise: EventLoopPromise<Void>?) {
        guard plaintext.readableBytes > 0 else {
            context.write(Self.wrapOutboundOut(plaintext), promise: promise)
            return
        }
        let records = (plaintext.readableBytes + Self.maximumRecordPlaintext - 1) / Self.maximumRecordPlaintext
        var ciphertext = context.channel.allocator.buffer(
            capacity: plaintext.readableBytes + records * Self.recordOverhead)
        var remaining = plaintext
        while remaining.readableBytes > 0 {
            let count = min(remaining.readableBytes, Self.writeSlice)
            ERR_clear_error()
            let written = remaining.withUnsafeReadableBytes { SSL_write(ssl, $0.baseAddress, Int32(count)) }
            guard written > 0 else {
                let code = SSL_get_error(ssl, written)
                let error = TLSError.fromQueue(.protocolError, fallback: "SSL_write failed (SSL_get_error \(code))")
                promise?.fail(error)
                fail(context: context, error)
                return
            }
            remaining.moveReaderIndex(forwardBy: Int(written))
            drainWriteBIO(into: &ciphertext)
        }
        context.write(Self.wrapOutboundOut(ciphertext), promise: promise)
    }

    private func drainWriteBIO(into buffer: inout ByteBuffer) {
        while true {
            let pending = Int(parlor_tls_bio_pending(writeBIO))
            guard pending > 0 else { return }
            let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: pending) { space in
                Int(max(0, BIO_read(writeBIO, space.baseAddress, Int32(clamping: pending))))
            }
            guard read > 0 else { return }
        }
    }

    /// Writes and flushes whatever OpenSSL produced (handshake messages, alerts, close_notify).
    private func writeNetworkOutput(context: ChannelHandlerContext, promise: EventLoopPromise<Void>? = nil) {
        let pending = Int(parlor_tls_bio_pending(writeBIO))
        guard pending > 0 else {
            promise?.succeed(())
            return
        }
        var output = context.channel.allocator.buffer(capacity: pending)
        drainWriteBIO(into: &output)
        context.writeAndFlush(Self.wrapOutboundOut(output), promise: promise)
    }

    // MARK: Closing

    /// Sends close_notify and closes the connection once it is written (or after `shutdownTimeout`).
    private func beginShutdown(context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        state = .closing
        cancelTimer()
        failBufferedWrites(ChannelError.ioOnClosedChannel)
        let closed = context.eventLoop.makePromise(of: Void.self)
        closePromise = closed
        if let promise { closed.futureResult.cascade(to: promise) }

        ERR_clear_error()
        _ = SSL_shutdown(ssl)  // queues close_notify; returns 1 if the peer's close_notify has already arrived
        ERR_clear_error()
        guard parlor_tls_bio_pending(writeBIO) > 0 else {
            finishClose(context: context)
            return
        }
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: settings.shutdownTimeout) {
            self.finishClose(context: context)
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.finishClose(context: context)
        }
        writeNetworkOutput(context: context, promise: written)
    }

    private func finishClose(context: ChannelHandlerContext) {
        guard !closeIssued else { return }
        closeIssued = true
        cancelTimer()
        state = .closed
        context.close(mode: .all, promise: closePromise)
    }

    /// Reports `error` and closes the connection, after sending any alert OpenSSL queued.
    private func fail(context: ChannelHandlerContext, _ error: TLSError) {
        guard state != .closed else { return }
        state = .closed
        cancelTimer()
        ERR_clear_error()
        writeNetworkOutput(context: context)
        failBufferedWrites(error)
        context.fireErrorCaught(error)
        if !closeIssued {
            closeIssued = true
            context.close(mode: .all, promise: closePromise)
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }
}

@available(*, unavailable)
extension TLSHandler: Sendable {}
