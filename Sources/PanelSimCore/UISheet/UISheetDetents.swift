/// The sheet's detents (uisheet.md §3.0–§3.3, §3.8, §3.10): the shown detent, the rest
/// candidates with the keyboard, the drag's rubber bands, and the dimming.

extension UISheetSystem {
    // MARK: Detents, candidates and rest (§3.0, §3.2, §3.10)

    /// The detent shown for the selection: the selected one, else the smallest (§3.2).
    var shownDetent: ResolvedDetent? {
        @inline(__always) get { shownDetentIndex.map { geometry.detents[$0] } }
    }

    /// `shownDetent`'s index in `geometry.detents` (nil without active detents).
    var shownDetentIndex: Int? {
        @inline(__always) get {
            geometry.index(of: sheet.selectedDetentIdentifier) ?? (geometry.detents.isEmpty ? nil : geometry.detents.count - 1)
        }
    }

    // The small getters below are read by mutating methods on every moved sample; inlined, they
    // read the fields in place (called out of line, each call copied the whole system first).

    var smallestOffset: Double { @inline(__always) get { geometry.detents.last?.offset ?? geometry.height } }

    /// The keyboard overlap k (U23).
    var keyboardOverlap: Double { min(keyboardHeight, geometry.fullHeight) }

    /// A candidate rest offset: an inserted keyboard detent, a detent (its index in
    /// `geometry.detents`), or the dismiss point. Plain values: a list of them is freed without
    /// releasing anything per element.
    struct Candidate: Equatable {
        enum Kind: Equatable {
            case keyboard
            case detent(Int)
            case dismiss
        }
        var offset: Double
        var kind: Kind
    }

    /// Candidates top to bottom (§3.0), without the dismiss point; `keyboardIndex` is the keyboard
    /// position's index while the keyboard is up. `extra` reserves room for candidates the caller
    /// appends (the dismiss point), so that the list is allocated once.
    /// - Complexity: O(detents) without the keyboard's lift; O(d log d) with it.
    @inline(__always)
    func restCandidates(reserving extra: Int = 0) -> (list: [Candidate], keyboardIndex: Int?) {
        guard keyboardUp else {
            var list: [Candidate] = []
            list.reserveCapacity(geometry.detents.count + extra)
            for (i, d) in geometry.detents.enumerated() { list.append(Candidate(offset: d.offset, kind: .detent(i))) }
            return (list, nil)
        }
        return restCandidatesWithKeyboard(reserving: extra)
    }

    /// `restCandidates(reserving:)` while the keyboard is up (out of line: the path without it
    /// stays small enough to inline).
    @inline(never)
    func restCandidatesWithKeyboard(reserving extra: Int) -> (list: [Candidate], keyboardIndex: Int?) {
        var list: [Candidate] = []
        list.reserveCapacity(geometry.detents.count + 1 + extra)
        let shown = shownDetentIndex
        var lifted = false
        if sheet.keyboardPolicy == .uikit, let p0 = geometry.detents.first?.offset, p0 > geometry.largeTop {
            list.append(
                Candidate(offset: geometry.round(max(geometry.largeTop, p0 - keyboardOverlap)), kind: .keyboard))
        }
        for (i, d) in geometry.detents.enumerated() {
            var offset = d.offset
            if sheet.keyboardPolicy == .liftSelected && i == shown {
                offset = geometry.round(max(geometry.largeTop, geometry.height - keyboardOverlap - d.value))
                lifted = true
            }
            list.append(Candidate(offset: offset, kind: .detent(i)))
        }
        // Stable sort by offset (the lift may reorder).
        if lifted {
            list = list.enumerated().sorted {
                $0.element.offset != $1.element.offset ? $0.element.offset < $1.element.offset : $0.offset < $1.offset
            }.map(\.element)
        }
        if sheet.keyboardPolicy == .liftSelected {
            return (list, shown.flatMap { i in list.firstIndex { $0.kind == .detent(i) } })
        }
        return (list, 0)
    }

    /// Where the sheet rests now: the keyboard position while the keyboard is up, else the shown
    /// detent's offset (SH1). Without the keyboard no candidate list is built.
    var restOffset: Double {
        @inline(__always) get {
            if keyboardUp {
                let (list, k) = restCandidates()
                if let k, k < list.count { return list[k].offset }
            }
            return shownDetent?.offset ?? geometry.height
        }
    }

    /// The top rest candidate's offset (`restCandidates().list.first`, else y_L). Without the
    /// keyboard the candidates are the detents in order, so the first detent's offset.
    var topCandidate: Double {
        guard keyboardUp else { return geometry.detents.first?.offset ?? geometry.largeTop }
        return restCandidates().list.first?.offset ?? geometry.largeTop
    }

    /// `topCandidate` for the drag's mutating methods: read in place without the keyboard; with
    /// it, the candidate list is built out of line. (Any non-mutating call that is not inlined,
    /// made from mutating code, copies the whole system first; here it stays off the path of
    /// every moved sample.)
    @inline(__always)
    mutating func dragTopCandidate() -> Double {
        guard keyboardUp else { return geometry.detents.first?.offset ?? geometry.largeTop }
        return topCandidateWithKeyboard()
    }

    /// `topCandidate` while the keyboard is up (out of line; mutating only so that its callers
    /// pass the system in place).
    @inline(never)
    mutating func topCandidateWithKeyboard() -> Double { topCandidate }

    /// The lower bound B of the drag (§3.3 item 5).
    var lowerBound: Double {
        @inline(__always) get { dismissible && !sheet.isModalInPresentation ? geometry.height : smallestOffset }
    }

    /// The displayed offset for the drag's unconstrained offset `u` (§3.3 item 5: rubber bands
    /// above the top candidate and below the lower bound). Mutating only for `dragTopCandidate()`.
    @inline(__always)
    mutating func display(_ u: Double) -> Double {
        let p0 = dragTopCandidate()
        let b = lowerBound
        if u < p0 { return p0 - SheetGeometry.band(p0 - u, geometry.extentUp(above: p0)) }
        if u > b { return b + SheetGeometry.band(u - b, geometry.extentDown) }
        return u
    }

    /// The inverse of `display(_:)`.
    @inline(__always)
    mutating func undisplay(_ y: Double) -> Double {
        let p0 = dragTopCandidate()
        let b = lowerBound
        if y < p0 { return p0 - SheetGeometry.unband(p0 - y, geometry.extentUp(above: p0)) }
        if y > b { return b + SheetGeometry.unband(y - b, geometry.extentDown) }
        return y
    }

    /// The dimming fraction at displayed offset y (§3.8 items 1–2, U18), 0…1.
    @inline(__always)
    func dimming(at y: Double) -> Double { dimmingBand.dimming(at: y) }
}

/// Where the sheet's dimming changes (§3.8 items 1–2, U18): between the offset of the detent above
/// the largest undimmed one (fully dimmed at and above it, y_dim) and that detent's offset (or H
/// without one, y_next), in container y (pt).
enum DimmingBand: Sendable, Equatable {
    /// Never dimmed: no active detent, or the largest undimmed detent is the top one.
    case none
    /// y_dim = y_next: dimmed at and above y_dim, else not.
    case step(yDim: Double)
    /// Dimmed (y − y_next)/(y_dim − y_next), clamped to 0…1.
    case ramp(yDim: Double, yNext: Double)

    /// The dimming fraction at displayed offset y (pt), 0…1.
    @inline(__always)
    func dimming(at y: Double) -> Double {
        switch self {
        case .none: return 0
        case .step(let yDim): return y <= yDim ? 1 : 0
        case .ramp(let yDim, let yNext): return min(max((y - yNext) / (yDim - yNext), 0), 1)
        }
    }

    /// The band of `geometry`'s active detents with `largestUndimmed` the largest undimmed
    /// detent's identifier (nil, or one that names no active detent: every detent dims).
    /// - Complexity: O(detents).
    init(_ geometry: SheetGeometry, largestUndimmed: String?) {
        let d = geometry.detents
        guard !d.isEmpty else {
            self = .none
            return
        }
        let yDim: Double
        let yNext: Double
        if let iU = geometry.index(of: largestUndimmed) {
            if iU == 0 {
                self = .none
                return
            }
            yDim = d[iU - 1].offset
            yNext = d[iU].offset
        } else {
            yDim = d[d.count - 1].offset
            yNext = geometry.height
        }
        self = yDim == yNext ? .step(yDim: yDim) : .ramp(yDim: yDim, yNext: yNext)
    }
}
