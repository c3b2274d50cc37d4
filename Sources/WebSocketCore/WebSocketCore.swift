// WebSocketCore
