/// SHA-256 (FIPS 180-4 §6.2) over bytes, for trace digests (`"sha256:<hex>"` in result headers).
///
/// The compression keeps the eight working variables in locals and runs the 64 rounds eight at a
/// time with the variables' roles rotated (no shuffling moves); the message schedule lives in one
/// stack buffer for the whole input, and blocks are read in place (big-endian word loads), so
/// hashing allocates nothing but the 32-byte result.
public enum SHA256 {
    /// The round constants K₀…K₆₃ (FIPS 180-4 §4.2.2).
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The eight 32-bit words of the hash value H (FIPS 180-4 §6.2).
    private typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The 32-byte digest of `bytes`.
    /// - Complexity: O(n); no allocation besides the result.
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { digest($0) }
    }

    /// The 32-byte digest of the bytes in `input`.
    /// - Complexity: O(n); no allocation besides the result.
    public static func digest(_ input: UnsafeRawBufferPointer) -> [UInt8] {
        var h = initial
        let count = input.count
        let whole = count / 64 * 64
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            k.withUnsafeBufferPointer { k in
                let w = w.baseAddress!
                let k = k.baseAddress!
                // Whole 64-byte blocks straight from the input.
                if whole > 0, let base = input.baseAddress {
                    compress(&h, base, blocks: whole / 64, w, k)
                }
                pad(&h, tail: UnsafeRawBufferPointer(rebasing: input[whole...]), totalCount: count, w, k)
            }
        }
        return bytes(of: h)
    }

    private static let initial: State = (
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
    )

    /// Padding (§5.1.1) after the last whole block: the tail (< 64 bytes), 0x80, zeros to 56 mod
    /// 64, the bit length of all `totalCount` bytes big-endian; one or two blocks, on the stack.
    private static func pad(
        _ h: inout State, tail input: UnsafeRawBufferPointer, totalCount: Int,
        _ w: UnsafeMutablePointer<UInt32>, _ k: UnsafePointer<UInt32>
    ) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
            let rest = input.count
            for j in 0..<rest { tail[j] = input[j] }
            tail[rest] = 0x80
            let length = rest < 56 ? 64 : 128
            for j in (rest + 1)..<(length - 8) { tail[j] = 0 }
            let bitLength = UInt64(truncatingIfNeeded: totalCount) &* 8
            for j in 0..<8 { tail[length - 8 + j] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * j)) }
            compress(&h, UnsafeRawPointer(tail.baseAddress!), blocks: length / 64, w, k)
        }
    }

    private static func bytes(of h: State) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7] {
            for s in [24, 16, 8, 0] { out.append(UInt8(truncatingIfNeeded: word >> UInt32(s))) }
        }
        return out
    }

    /// SHA-256 of bytes given in pieces (a file read in chunks): the digest of their concatenation.
    public struct Hasher {
        private var h = SHA256.initial
        /// The bytes after the last whole block (fewer than 64).
        private var tail: [UInt8] = []
        private var count = 0

        public init() {}

        /// Adds `input` after the bytes given so far.
        /// - Complexity: O(input.count).
        public mutating func update(_ input: UnsafeRawBufferPointer) {
            guard input.count > 0 else { return }
            count += input.count
            var start = 0
            if !tail.isEmpty {
                let take = min(64 - tail.count, input.count)
                tail.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[0..<take]))
                start = take
                guard tail.count == 64 else { return }
                tail.withUnsafeBytes { block in SHA256.compress(&h, block) }
                tail.removeAll(keepingCapacity: true)
            }
            let whole = (input.count - start) / 64 * 64
            if whole > 0 { SHA256.compress(&h, UnsafeRawBufferPointer(rebasing: input[start..<(start + whole)])) }
            tail.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[(start + whole)...]))
        }

        /// `finalize()` as 64 lowercase hexadecimal digits (as `SHA256.hex(_:)` gives for the whole).
        public func finalizeHex() -> String { SHA256.hexDigits(of: finalize()) }

        /// The 32-byte digest of everything given.
        public func finalize() -> [UInt8] {
            var h = h
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                SHA256.k.withUnsafeBufferPointer { k in
                    tail.withUnsafeBytes { SHA256.pad(&h, tail: $0, totalCount: count, w.baseAddress!, k.baseAddress!) }
                }
            }
            return SHA256.bytes(of: h)
        }
    }

    /// `digest` (32 bytes) as 64 lowercase hexadecimal digits.
    static func hexDigits(of digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var s = ""
        s.reserveCapacity(64)
        for byte in digest {
            s.append(digits[Int(byte >> 4)])
            s.append(digits[Int(byte & 0x0F)])
        }
        return s
    }

    /// Compressions of the whole 64-byte blocks of `blocks` (its count a multiple of 64).
    private static func compress(_ h: inout State, _ blocks: UnsafeRawBufferPointer) {
        guard let base = blocks.baseAddress else { return }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            k.withUnsafeBufferPointer { k in
                compress(&h, base, blocks: blocks.count / 64, w.baseAddress!, k.baseAddress!)
            }
        }
    }

    /// SHA-256 compressions (FIPS 180-4 §6.2.2) of `blocks` consecutive 64-byte blocks at `p` into `h`.
    /// `w` is scratch space for the 64-word message schedule; `k` the round constants.
    private static func compress(
        _ h: inout State, _ p: UnsafeRawPointer, blocks: Int,
        _ w: UnsafeMutablePointer<UInt32>, _ k: UnsafePointer<UInt32>
    ) {
        var p = p
        var (a0, b0, c0, d0, e0, f0, g0, h0) = h
        for _ in 0..<blocks {
            for t in 0..<16 {
                w[t] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self))
            }
            for t in 16..<64 {
                let x = w[t - 15]
                let y = w[t - 2]
                let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3)
                let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var a = a0
            var b = b0
            var c = c0
            var d = d0
            var e = e0
            var f = f0
            var g = g0
            var hh = h0
            var t = 0
            while t < 64 {
                // Eight rounds; each names the variables in their rotated roles (a…h of §6.2.2).
                round(a, b, c, &d, e, f, g, &hh, k[t] &+ w[t])
                round(hh, a, b, &c, d, e, f, &g, k[t + 1] &+ w[t + 1])
                round(g, hh, a, &b, c, d, e, &f, k[t + 2] &+ w[t + 2])
                round(f, g, hh, &a, b, c, d, &e, k[t + 3] &+ w[t + 3])
                round(e, f, g, &hh, a, b, c, &d, k[t + 4] &+ w[t + 4])
                round(d, e, f, &g, hh, a, b, &c, k[t + 5] &+ w[t + 5])
                round(c, d, e, &f, g, hh, a, &b, k[t + 6] &+ w[t + 6])
                round(b, c, d, &e, f, g, hh, &a, k[t + 7] &+ w[t + 7])
                t += 8
            }
            a0 = a0 &+ a
            b0 = b0 &+ b
            c0 = c0 &+ c
            d0 = d0 &+ d
            e0 = e0 &+ e
            f0 = f0 &+ f
            g0 = g0 &+ g
            h0 = h0 &+ hh
            p += 64
        }
        h = (a0, b0, c0, d0, e0, f0, g0, h0)
    }

    /// One round of §6.2.2 step 3 with the shuffle folded into the caller's naming: `d` becomes
    /// d + T₁ (the next e) and `h` becomes T₁ + T₂ (the next a); `kw` is Kₜ + Wₜ.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
        _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32
    ) {
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ (g ^ (e & (f ^ g))) &+ kw
        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) | (c & (a | b)))
        d = d &+ t1
        h = t1 &+ t2
    }

    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    /// - Complexity: O(n).
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { hex($0) }
    }

    /// The digest of the bytes in `input` as 64 lowercase hexadecimal digits.
    /// - Complexity: O(n).
    public static func hex(_ input: UnsafeRawBufferPointer) -> String {
        hexDigits(of: digest(input))
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}
