/// Tasks waiting for a value that some other task provides: a slot is reserved, then waited on, then
/// resolved — in either order of the last two (a value that comes first is kept until collected).
struct WaiterSlots<Value> {
    typealias Waiter = CheckedContinuation<Value, Never>

    private var slots: [Int: (waiter: Waiter?, value: Value?)] = [:]
    private var nextID = 0

    var isEmpty: Bool { slots.isEmpty }

    mutating func reserve() -> Int {
        nextID += 1
        slots[nextID] = (nil, nil)
        return nextID
    }

    /// Waits on slot `id`: returns its value at once when it is already resolved, else keeps `waiter`.
    /// A slot that is gone resolves to `gone`.
    mutating func wait(_ id: Int, waiter: Waiter, gone: Value) -> Value? {
        guard let slot = slots[id] else { return gone }
        if let value = slot.value {
            slots[id] = nil
            return value
        }
        slots[id] = (waiter, nil)
        return nil
    }

    /// Resolves slot `id` (first resolution wins). Returns the waiter to resume, if one waits.
    mutating func resolve(_ id: Int, with value: Value) -> (Waiter, Value)? {
        guard let slot = slots[id], slot.value == nil else { return nil }
        guard let waiter = slot.waiter else {
            slots[id] = (nil, value)
            return nil
        }
        slots[id] = nil
        return (waiter, value)
    }

    /// Resolves every slot with `value`.
    mutating func resolveAll(with value: Value) -> [(Waiter, Value)] {
        slots.keys.sorted().compactMap { resolve($0, with: value) }
    }
}

extension WaiterSlots: Sendable where Value: Sendable {}
