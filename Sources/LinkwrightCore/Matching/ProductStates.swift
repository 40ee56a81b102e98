/// Product states of a search, each `width` view states side by side in one buffer (in order of
/// discovery, so a state's row is its node number), found again through an open-addressing
/// table: no array per state. Hashing and comparing read the buffers through pointers: a
/// search inserts a state per view step, most of them known already.
struct ProductStates {
    let width: Int
    private(set) var rows: [Int32] = []
    private var slots: [Int32] = Array(repeating: -1, count: 64)
    private(set) var count = 0

    init(width: Int) { self.width = width }

    /// Adds `state` unless present; whether it was new.
    mutating func insert(_ state: [Int32]) -> Bool {
        if (count + 1) * 2 > slots.count { grow() }
        let width = width
        let mask = slots.count - 1
        let (found, slot) = state.withUnsafeBufferPointer { state in
            rows.withUnsafeBufferPointer { rows in
                slots.withUnsafeBufferPointer { slots in
                    var slot = Self.hash(state) & mask
                    while slots[slot] >= 0 {
                        let start = Int(slots[slot]) * width
                        var equal = true
                        for index in 0..<width where rows[start + index] != state[index] {
                            equal = false
                            break
                        }
                        if equal { return (true, slot) }
                        slot = (slot + 1) & mask
                    }
                    return (false, slot)
                }
            }
        }
        if found { return false }
        slots[slot] = Int32(count)
        rows.append(contentsOf: state)
        count += 1
        return true
    }

    private static func hash(_ state: UnsafeBufferPointer<Int32>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for value in state {
            hash ^= UInt64(UInt32(bitPattern: value))
            hash &*= 0x100_0000_01B3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let (width, mask) = (width, slots.count - 1)
        rows.withUnsafeBufferPointer { rows in
            slots.withUnsafeMutableBufferPointer { slots in
                for row in 0..<count {
                    var slot =
                        Self.hash(UnsafeBufferPointer(rebasing: rows[(row * width)..<((row + 1) * width)])) & mask
                    while slots[slot] >= 0 { slot = (slot + 1) & mask }
                    slots[slot] = Int32(row)
                }
            }
        }
    }
}
