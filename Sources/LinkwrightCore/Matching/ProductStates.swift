/// Product states of a search, each `width` view states side by side in one buffer (in order of
/// discovery, so a state's row is its node number), found again through an open-addressing
/// table: no array per state.
struct ProductStates {
    let width: Int
    private(set) var rows: [Int32] = []
    private var slots: [Int32] = Array(repeating: -1, count: 64)
    private(set) var count = 0

    init(width: Int) { self.width = width }

    /// Adds `state` unless present; whether it was new.
    mutating func insert(_ state: [Int32]) -> Bool {
        if (count + 1) * 2 > slots.count { grow() }
        var slot = hash(state) & (slots.count - 1)
        while slots[slot] >= 0 {
            if equals(Int(slots[slot]), state) { return false }
            slot = (slot + 1) & (slots.count - 1)
        }
        slots[slot] = Int32(count)
        rows += state
        count += 1
        return true
    }

    private func hash(_ state: [Int32]) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for value in state {
            hash ^= UInt64(UInt32(bitPattern: value))
            hash &*= 0x100_0000_01B3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    private func hash(row: Int) -> Int { hash(Array(rows[(row * width)..<((row + 1) * width)])) }

    private func equals(_ row: Int, _ state: [Int32]) -> Bool {
        let start = row * width
        for index in 0..<width where rows[start + index] != state[index] { return false }
        return true
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        for row in 0..<count {
            var slot = hash(row: row) & (slots.count - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = Int32(row)
        }
    }
}
