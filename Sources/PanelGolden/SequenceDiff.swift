/// A minimal edit script between two sequences (Myers' O((N+M)·D) algorithm) and its rendering as
/// unified-diff hunks. Used for event-name sequences in failure reports.
public enum SequenceDiff {
    /// One step of an edit script.
    public enum Edit: Sendable, Equatable {
        /// `old[oldIndex] == new[newIndex]`.
        case keep(oldIndex: Int, newIndex: Int)
        /// `old[oldIndex]` is not in `new`.
        case delete(oldIndex: Int)
        /// `new[newIndex]` is not in `old`.
        case insert(newIndex: Int)
    }

    /// A shortest edit script turning `old` into `new`, in order; deletions come before
    /// insertions at the same place. Returns nil when more than `maxEdits` insertions plus
    /// deletions would be needed (to bound time and memory).
    /// - Complexity: O((N + M) · D) time and O(D²) memory, D = number of edits (≤ `maxEdits`),
    ///   after a linear trim of the common prefix and suffix.
    public static func edits<T: Equatable>(from old: [T], to new: [T], maxEdits: Int = 4000) -> [Edit]? {
        var prefix = 0
        while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix && suffix < new.count - prefix
            && old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        { suffix += 1 }
        let a = Array(old[prefix..<(old.count - suffix)])
        let b = Array(new[prefix..<(new.count - suffix)])
        guard let middle = myers(a, b, maxEdits: maxEdits) else { return nil }

        var result: [Edit] = []
        result.reserveCapacity(prefix + middle.count + suffix)
        for i in 0..<prefix { result.append(.keep(oldIndex: i, newIndex: i)) }
        for e in middle {
            switch e {
            case .keep(let i, let j): result.append(.keep(oldIndex: i + prefix, newIndex: j + prefix))
            case .delete(let i): result.append(.delete(oldIndex: i + prefix))
            case .insert(let j): result.append(.insert(newIndex: j + prefix))
            }
        }
        for k in 0..<suffix {
            result.append(.keep(oldIndex: old.count - suffix + k, newIndex: new.count - suffix + k))
        }
        return result
    }

    private static func myers<T: Equatable>(_ a: [T], _ b: [T], maxEdits: Int) -> [Edit]? {
        let n = a.count
        let m = b.count
        if n == 0 && m == 0 { return [] }
        let maxD = min(n + m, maxEdits)
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        var trace: [[Int]] = []  // trace[d] = v after step d, restricted to k in -d...d
        var found = false
        outer: for d in 0...maxD {
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]  // down: insertion
                } else {
                    x = v[offset + k - 1] + 1  // right: deletion
                }
                var y = x - k
                while x < n && y < m && a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n && y >= m {
                    trace.append(Array(v[(offset - d)...(offset + d)]))
                    found = true
                    break outer
                }
            }
            trace.append(Array(v[(offset - d)...(offset + d)]))
        }
        guard found else { return nil }

        // Backtrack from (n, m).
        var edits: [Edit] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let k = x - y
            if d == 0 {
                while x > 0 && y > 0 {
                    x -= 1
                    y -= 1
                    edits.append(.keep(oldIndex: x, newIndex: y))
                }
                break
            }
            let prev = trace[d - 1]  // indices k' + (d - 1)
            func prevX(_ kk: Int) -> Int { prev[kk + d - 1] }
            let down = k == -d || (k != d && prevX(k - 1) < prevX(k + 1))
            let prevK = down ? k + 1 : k - 1
            let startX = prevX(prevK)
            let startY = startX - prevK
            let midX = down ? startX : startX + 1
            let midY = down ? startY + 1 : startY
            while x > midX && y > midY {
                x -= 1
                y -= 1
                edits.append(.keep(oldIndex: x, newIndex: y))
            }
            if down { edits.append(.insert(newIndex: startY)) } else { edits.append(.delete(oldIndex: startX)) }
            x = startX
            y = startY
        }
        edits.reverse()
        // Normalize: within a run of changes, deletions first.
        var normalized: [Edit] = []
        var dels: [Edit] = []
        var ins: [Edit] = []
        func flush() {
            normalized += dels
            normalized += ins
            dels = []
            ins = []
        }
        for e in edits {
            switch e {
            case .keep:
                flush()
                normalized.append(e)
            case .delete: dels.append(e)
            case .insert: ins.append(e)
            }
        }
        flush()
        return normalized
    }

    /// Renders an edit script as unified-diff hunks (`@@ -a,b +c,d @@`, then lines prefixed by
    /// `" "`, `"-"` or `"+"`), with `context` unchanged lines around each change.
    /// - Parameters:
    ///   - oldLine / newLine: text of element i of the old / new sequence.
    ///   - keptLine: text of a context line, from the old and new index of the element both
    ///     sequences keep (for elements that are equal but carry other data, such as times);
    ///     default: `oldLine` of the old index.
    /// - Returns: the hunk lines (without the `---`/`+++` file header); empty when nothing changed.
    /// - Complexity: O(edits).
    public static func unifiedHunks(
        _ edits: [Edit], context: Int = 3,
        oldLine: (Int) -> String, newLine: (Int) -> String,
        keptLine: ((Int, Int) -> String)? = nil
    ) -> [String] {
        let changeIndices = edits.indices.filter { if case .keep = edits[$0] { return false } else { return true } }
        guard !changeIndices.isEmpty else { return [] }
        // Group changes whose context windows touch.
        var groups: [(Int, Int)] = []  // ranges of edit indices, inclusive
        for i in changeIndices {
            let lo = max(0, i - context)
            let hi = min(edits.count - 1, i + context)
            if let last = groups.last, lo <= last.1 + 1 {
                groups[groups.count - 1].1 = max(last.1, hi)
            } else {
                groups.append((lo, hi))
            }
        }
        // Old/new positions before each edit index.
        var oldPos = [Int](repeating: 0, count: edits.count + 1)
        var newPos = [Int](repeating: 0, count: edits.count + 1)
        for (i, e) in edits.enumerated() {
            switch e {
            case .keep:
                oldPos[i + 1] = oldPos[i] + 1
                newPos[i + 1] = newPos[i] + 1
            case .delete:
                oldPos[i + 1] = oldPos[i] + 1
                newPos[i + 1] = newPos[i]
            case .insert:
                oldPos[i + 1] = oldPos[i]
                newPos[i + 1] = newPos[i] + 1
            }
        }
        var lines: [String] = []
        for (lo, hi) in groups {
            let oldCount = oldPos[hi + 1] - oldPos[lo]
            let newCount = newPos[hi + 1] - newPos[lo]
            let oldStart = oldCount == 0 ? oldPos[lo] : oldPos[lo] + 1
            let newStart = newCount == 0 ? newPos[lo] : newPos[lo] + 1
            lines.append("@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@")
            for e in edits[lo...hi] {
                switch e {
                case .keep(let i, let j): lines.append(" " + (keptLine?(i, j) ?? oldLine(i)))
                case .delete(let i): lines.append("-" + oldLine(i))
                case .insert(let j): lines.append("+" + newLine(j))
                }
            }
        }
        return lines
    }
}
