/// The file digest (`"sha256:<hex>"`) of a trace being loaded.
enum FileDigest {
    /// Files at least this large (bytes) are hashed on their own thread while the loader parses;
    /// below it a thread costs more than it saves.
    static let concurrencyThreshold = 1 << 20

    /// The digest ignores a UTF-8 byte order mark and the line-ending style: it is taken over
    /// the bytes without a leading BOM and with every CR LF as LF, so a trace saved by an editor
    /// that adds either replays (and digests) the same; a file with neither is hashed as is.
    static func start(_ bytes: [UInt8]) -> BackgroundValue<String> {
        let digest: @Sendable () -> String = { "sha256:" + SHA256.hex(canonicalBytes(bytes)) }
        return bytes.count >= concurrencyThreshold ? BackgroundValue(digest) : BackgroundValue(ready: digest())
    }
}

extension FileDigest {
    /// `bytes` without a leading UTF-8 BOM and with CR LF pairs as LF (the input itself when it
    /// has neither).
    /// - Complexity: O(n) (one `memchr` pass when there is no CR).
    static func canonicalBytes(_ bytes: [UInt8]) -> [UInt8] {
        let hasBOM = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        let hasCR = bytes.withUnsafeBufferPointer { LineScan.next(0x0D, in: $0, from: 0) < $0.count }
        guard hasBOM || hasCR else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var k = hasBOM ? 3 : 0
        while k < bytes.count {
            if bytes[k] == 0x0D && k + 1 < bytes.count && bytes[k + 1] == 0x0A {
                k += 1
                continue
            }
            out.append(bytes[k])
            k += 1
        }
        return out
    }
}
