import Foundation
import LinkwrightTestSupport
import Testing

@testable import LinkwrightIO

/// `PackIndex` against indexes git wrote, then damaged one field at a time: each damage git
/// would refuse is named, and the healthy index passes.
@Suite struct PackIndexTests {
    /// A packed repository of a few objects: the bytes of its index and the size of its pack.
    private func packedIndex() throws -> (bytes: [UInt8], packSize: Int) {
        let fixture = try makeGitFixture()
        try fixture.commit("one", ["a.yaml": "a: 1\n", "b.yaml": "b: 2\n"])
        try fixture.commit("two", ["a.yaml": "a: 3\n"])
        try fixture.git("gc", "-q")
        let folder = fixture.repository + "/.git/objects/pack"
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".idx") })
        let index = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
        let pack = try FileManager.default.attributesOfItem(atPath: folder + "/" + name.dropLast(4) + ".pack")
        return (index, try #require(pack[.size] as? Int))
    }

    private func defect(_ bytes: [UInt8], packSize: Int) -> String? {
        bytes.withUnsafeBytes { PackIndex.check($0, packSize: packSize) }
    }

    private func word(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    @Test func eachDamageGitRefusesIsNamed() throws {
        let (healthy, packSize) = try packedIndex()
        #expect(defect(healthy, packSize: packSize) == nil)
        let objects =
            Int(healthy[8 + 1020]) << 24 | Int(healthy[8 + 1021]) << 16 | Int(healthy[8 + 1022]) << 8
            | Int(healthy[8 + 1023])
        #expect(objects >= 6)
        let ids = 8 + 1024
        let offsets = ids + objects * 24

        var raised = healthy
        raised.replaceSubrange((8 + 1020)..<(8 + 1024), with: word(0x7FFF_FFFF))
        #expect(defect(raised, packSize: packSize)?.hasPrefix("its fan-out table counts 2147483647 objects") == true)

        var lowered = healthy
        lowered.replaceSubrange((8 + 400)..<(8 + 404), with: word(UInt32(objects + 1)))
        #expect(defect(lowered, packSize: packSize)?.contains("is below the one before it") == true)

        var pastThePack = healthy
        pastThePack.replaceSubrange(offsets..<(offsets + 4), with: word(UInt32(packSize)))
        #expect(defect(pastThePack, packSize: packSize) == "the offset of entry 0 lies past the end of its pack")

        var largeSlot = healthy
        largeSlot.replaceSubrange(offsets..<(offsets + 4), with: word(0x8000_0003))
        #expect(defect(largeSlot, packSize: packSize) == "entry 0 names 64-bit offset 3, but the index holds 0")

        var swapped = healthy
        swapped.replaceSubrange(ids..<(ids + 20), with: healthy[(ids + 20)..<(ids + 40)])
        swapped.replaceSubrange((ids + 20)..<(ids + 40), with: healthy[ids..<(ids + 20)])
        #expect(defect(swapped, packSize: packSize)?.hasPrefix("its object IDs are not in strictly increasing") == true)

        #expect(defect(Array(healthy.dropLast(8)), packSize: packSize)?.hasPrefix("its size (") == true)
        #expect(defect(Array(healthy.prefix(500)), packSize: packSize) == "it is too short to hold a fan-out table")
    }
}
