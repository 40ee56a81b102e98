/// A rule of a compiled file, which says where it was written.
protocol Locatable: Equatable {
    var origin: SourceLocation? { get set }
    /// Whether `other` is this rule exactly (texts compared scalar for scalar), written
    /// elsewhere or not.
    func sameButWhere(_ other: Self) -> Bool
    /// Where each stored property but `origin` lies in the rule's memory.
    static var fieldsButOrigin: [Range<Int>] { get }
}

extension Locatable {
    /// Whether the rules at `one` and `other` hold the same bits in every stored property but
    /// their origin (`fieldsButOrigin`), so `sameButWhere` holds: the same storage of each text
    /// and list, as a rule carried from an earlier revision holds (`RuleCompilations`), or the
    /// same short texts. Read in place, without the copies passing the rules to `sameButWhere`
    /// makes; `false` says nothing.
    static func sameBitsButWhere(_ one: UnsafePointer<Self>, _ other: UnsafePointer<Self>) -> Bool {
        let (one, other) = (UnsafeRawPointer(one), UnsafeRawPointer(other))
        // Word by word: the fields are references, texts and flags of a few words or bytes,
        // for which calling `memcmp` cost more than the comparison.
        for field in fieldsButOrigin {
            var offset = field.lowerBound
            while offset + 8 <= field.upperBound {
                guard
                    one.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        == other.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                else { return false }
                offset += 8
            }
            while offset < field.upperBound {
                guard
                    one.load(fromByteOffset: offset, as: UInt8.self)
                        == other.load(fromByteOffset: offset, as: UInt8.self)
                else { return false }
                offset += 1
            }
        }
        return true
    }

    /// Where the stored property `key` lies in the rule's memory.
    static func field<Value>(_ key: KeyPath<Self, Value>) -> Range<Int> {
        let offset = MemoryLayout<Self>.offset(of: key)!
        return offset..<offset + MemoryLayout<Value>.size
    }

    /// `sameButWhere` of the rules at `one` and `other`, told at once for a rule holding the
    /// other's storage (`sameBitsButWhere`), as a revision's rules kept from the one before do.
    static func sameButWhere(_ one: UnsafePointer<Self>, _ other: UnsafePointer<Self>) -> Bool {
        sameBitsButWhere(one, other) || one.pointee.sameButWhere(other.pointee)
    }
}

extension AASAComponent: Locatable {
    static let fieldsButOrigin = [
        field(\.path), field(\.query), field(\.fragment), field(\.exclude), field(\.flags), field(\.comment),
    ]
}

extension DynamicComponent: Locatable {
    static let fieldsButOrigin = [
        field(\.path), field(\.query), field(\.fragment), field(\.exclude), field(\.comments),
    ]
}
