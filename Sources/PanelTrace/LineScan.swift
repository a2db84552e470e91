import Foundation

/// Byte searches over the loader's buffer with `memchr` (vectorized in the C library).
enum LineScan {
    /// The offset of the first `byte` at or after `start`, or `b.count` when there is none.
    /// - Complexity: O(distance to it).
    static func next(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < b.count, let base = b.baseAddress else { return b.count }
        guard let hit = memchr(base + start, Int32(byte), b.count - start) else { return b.count }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    /// How many times `byte` occurs in `b`.
    /// - Complexity: O(n).
    static func count(of byte: UInt8, in b: UnsafeBufferPointer<UInt8>) -> Int {
        var n = 0
        var k = next(byte, in: b, from: 0)
        while k < b.count {
            n += 1
            k = next(byte, in: b, from: k + 1)
        }
        return n
    }
}
