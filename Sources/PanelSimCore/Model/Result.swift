/// What a replay produces (trace-format.md §2): delegate events and frames, in call order.

/// One value of a record field written by a panel system other than FloatingPanel.
public enum FieldValue: Sendable, Equatable {
    case number(Double)
    case string(String)
    case bool(Bool)
    /// A vector such as a velocity {x, y}.
    case point(Point)
    /// JSON `null`: a nil value such as the sheet's `selectedDetentIdentifier` (uisheet.md §2.3).
    case null
}

/// One `"key": value` of a record, in the order it is written.
public struct RecordField: Sendable, Equatable {
    public var key: String
    public var value: FieldValue
    public init(_ key: String, _ value: FieldValue) {
        self.key = key
        self.value = value
    }
}

/// An event of a panel system other than FloatingPanel (DrawerKit's callbacks, …): its result-file
/// name and its fields in the order they are written (drawerkit.md §2.3). Compared exactly by
/// name; numbers within the channel tolerances of the comparator.
public struct SystemEvent: Sendable, Equatable {
    public var name: String
    public var fields: [RecordField]
    public init(name: String, fields: [RecordField] = []) {
        self.name = name
        self.fields = fields
    }
    /// The value of `key`, nil when absent.
    public subscript(key: String) -> FieldValue? { fields.first { $0.key == key }?.value }
}

/// A frame of a panel system other than FloatingPanel: frame index k plus its channels in the
/// order they are written. Every system writes `location` (pt, container coordinates) and `state`
/// first; the rest are the system's own (drawerkit.md §2.3: `cornerRadius`, `handleAlpha`, …).
public struct SystemFrame: Sendable, Equatable {
    /// Frame number k; the frame's time is k / frameRate.
    public var index: Int
    public var channels: [RecordField]
    public init(index: Int, channels: [RecordField]) {
        self.index = index
        self.channels = channels
    }
    /// The value of channel `key`, nil when absent.
    public subscript(key: String) -> FieldValue? { channels.first { $0.key == key }?.value }
    /// The `location` channel (pt).
    public var location: Double { if case .number(let x)? = self["location"] { return x } else { return .nan } }
    /// The `state` channel.
    public var state: String { if case .string(let s)? = self["state"] { return s } else { return "" } }
    /// The frame as tools that read FloatingPanel frames see it (charts, fidelity): `location`,
    /// `state`, `contentOffset` when present, `isDragging`, and `isAnimating` (DrawerKit) or
    /// `isAttracting` (the sheet) as `isAttracting`; `backdropAlpha` when present (the sheet), else
    /// 0 (the other channels are left out).
    public var frameRecordView: FrameRecord {
        func number(_ key: String) -> Double? { if case .number(let x)? = self[key] { return x } else { return nil } }
        func flag(_ key: String) -> Bool { if case .bool(let b)? = self[key] { return b } else { return false } }
        return FrameRecord(
            index: index, location: location, state: state, backdropAlpha: number("backdropAlpha") ?? 0,
            contentOffset: number("contentOffset"), isAttracting: flag("isAnimating") || flag("isAttracting"),
            isDragging: flag("isDragging"))
    }

    /// True when both frames carry the same channels with equal values (the index aside).
    public func sameValues(as other: SystemFrame) -> Bool { channels == other.channels }
}

/// One delegate call, named as FloatingPanel's delegate method without the `floatingPanel` prefix,
/// or an event of another panel system (`system`).
public enum DelegateEvent: Sendable, Equatable {
    /// `floatingPanelShouldBeginDragging`, with the delegate's answer.
    case shouldBeginDragging(result: Bool)
    /// `floatingPanelWillBeginDragging`; `state` is the panel state at the call.
    case willBeginDragging(state: String)
    /// `floatingPanelDidMove`; `location` is the surface location (main axis, pt).
    case didMove(location: Double)
    /// `floatingPanelWillEndDragging(_:withVelocity:targetState:)`: pan velocity (pt/s, container
    /// axes), the target FloatingPanel proposed and the target after the delegate's override.
    case willEndDragging(velocity: Point, proposed: String, target: String)
    /// `floatingPanelDidEndDragging(_:willAttract:)`.
    case didEndDragging(willAttract: Bool)
    /// `floatingPanelWillBeginAttracting(_:to:)`.
    case willBeginAttracting(to: String)
    /// `floatingPanelDidEndAttracting`.
    case didEndAttracting
    /// `floatingPanelDidChangeState`; fires on every assignment, also to the same value.
    case didChangeState(state: String)
    /// `floatingPanel(_:shouldRemoveAt:with:)`: the removal vector (1/s) and the answer.
    case shouldRemove(velocity: Point, result: Bool)
    /// `floatingPanelWillRemove`.
    case willRemove
    /// `floatingPanelDidRemove`.
    case didRemove
    /// An event of a panel system other than FloatingPanel.
    case system(SystemEvent)

    /// The result-file event name.
    public var name: String {
        switch self {
        case .shouldBeginDragging: return "shouldBeginDragging"
        case .willBeginDragging: return "willBeginDragging"
        case .didMove: return "didMove"
        case .willEndDragging: return "willEndDragging"
        case .didEndDragging: return "didEndDragging"
        case .willBeginAttracting: return "willBeginAttracting"
        case .didEndAttracting: return "didEndAttracting"
        case .didChangeState: return "didChangeState"
        case .shouldRemove: return "shouldRemove"
        case .willRemove: return "willRemove"
        case .didRemove: return "didRemove"
        case .system(let e): return e.name
        }
    }
}

/// The panel as seen at the end of display frame `index`.
public struct FrameRecord: Sendable, Equatable {
    /// Frame number k; the frame's time is k / frameRate.
    public var index: Int
    /// Surface location (main axis, pt): FloatingPanel `surfaceLocation`.
    public var location: Double
    public var state: String
    /// `backdropView.alpha`, 0…1.
    public var backdropAlpha: Double
    /// Tracked scroll view's content offset (main axis, pt); nil without a scroll view.
    public var contentOffset: Double?
    public var isAttracting: Bool
    /// FloatingPanel `interactionInProgress`.
    public var isDragging: Bool
    /// FloatingPanel `scrollLocked` (the tracked scroll view is locked); nil without a scroll view.
    public var scrollLocked: Bool?
    /// The tracked scroll view's `contentInset` as FloatingPanel left it (pt; floatingpanel-core.md
    /// §3.10 `adjustScrollContentInsetIfNeeded` and the safe-area observation): the opt-in frame
    /// channel of `SimulationOptions.recordContentInset`. nil when the option is off or no scroll
    /// view is tracked.
    public var contentInset: Insets?
    public init(
        index: Int, location: Double, state: String, backdropAlpha: Double,
        contentOffset: Double? = nil, isAttracting: Bool, isDragging: Bool, scrollLocked: Bool? = nil,
        contentInset: Insets? = nil
    ) {
        self.index = index
        self.location = location
        self.state = state
        self.backdropAlpha = backdropAlpha
        self.contentOffset = contentOffset
        self.isAttracting = isAttracting
        self.isDragging = isDragging
        self.scrollLocked = scrollLocked
        self.contentInset = contentInset
    }
}

/// One record of a result, with its time.
public enum ResultRecord: Sendable, Equatable {
    /// A delegate event at `time` µs (the time of the sample or frame that caused it).
    case event(time: Microseconds, DelegateEvent)
    /// A FloatingPanel frame; its time is `frameTime(index, frameRate)`.
    case frame(FrameRecord)
    /// A frame of another panel system; its time is `frameTime(index, frameRate)`.
    case systemFrame(SystemFrame)

    /// The frame index k of a frame record (either kind), nil for an event.
    public var frameIndex: Int? {
        switch self {
        case .frame(let f): return f.index
        case .systemFrame(let f): return f.index
        case .event: return nil
        }
    }
    /// The `location` channel of a frame record (pt), nil for an event.
    public var frameLocation: Double? {
        switch self {
        case .frame(let f): return f.location
        case .systemFrame(let f): return f.location
        case .event: return nil
        }
    }
    /// The `state` channel of a frame record, nil for an event.
    public var frameState: String? {
        switch self {
        case .frame(let f): return f.state
        case .systemFrame(let f): return f.state
        case .event: return nil
        }
    }
}

/// The time of frame `index` at `frameRate` Hz in µs, rounded half up: frame k is at k/frameRate s
/// (floatingpanel-core.md §9 O1), computed from k, never accumulated.
public func frameTime(_ index: Int, frameRate: Int) -> Microseconds {
    let num = Int64(index) * 1_000_000
    let rate = Int64(frameRate)
    return (2 * num + rate) / (2 * rate)
}

/// The records of one replay, in call order, stored packed: FloatingPanel's frames and `didMove`
/// events are fixed-size entries of numbers (the state name is an index into a small table), the
/// other systems' frames fixed-size runs of words laid out by their `SystemFrameLayout`, any other
/// event is kept whole beside them. The replay appends without copying strings or enum payloads;
/// reading builds each `ResultRecord` on access.
///
/// A random-access collection of `ResultRecord`; two lists are equal when their records are.
/// - Complexity: O(1) append (amortized) and subscript; `==` is O(count).
public struct RecordList: RandomAccessCollection, @unchecked Sendable, Equatable, ExpressibleByArrayLiteral {
    /// One packed record. Frames use every field; `didMove` uses `integer` (time, µs) and
    /// `location`; other events use `integer` (time, µs) and `index` (into `events`).
    struct Entry: Sendable {
        enum Kind: UInt8, Sendable { case frame, didMove, event, systemFrame, packedSystemFrame }
        var kind: Kind
        /// Frame flags: an OR of the bit constants below (`isAttracting` … `scrollLocked`).
        var flags: UInt8
        /// Frame: index of the state name in `names`; other events: index in `events`; a system
        /// frame: index in `systemFrames`; a packed system frame: its position among them (its
        /// words start at index × `packedWordCount`).
        var index: UInt32
        /// Frame: index k; events: time, µs.
        var integer: Int64
        var location: Double
        var backdropAlpha: Double
        var contentOffset: Double

        static let isAttracting: UInt8 = 1, isDragging: UInt8 = 2, hasContentOffset: UInt8 = 4
        static let hasScrollLocked: UInt8 = 8, scrollLocked: UInt8 = 16
        /// A packed system frame of a steady run whose words are the run's words at `index` with
        /// lanes 0, 1 and 2 (`location`, `backdropAlpha`, `contentOffset`) written over the words
        /// `RecordList.runLaneWords` names (`MovingChannelRun.laneWords`).
        static let lanesInEntry: UInt8 = 32

        /// True when two frame entries differ only in their frame number (numbers compare with
        /// `==`; the content offset only when the frame has one). The replay drops such frames.
        @inline(__always)
        func sameFrameValues(as other: Entry) -> Bool {
            location == other.location && index == other.index && backdropAlpha == other.backdropAlpha
                && flags == other.flags && (flags & Entry.hasContentOffset == 0 || contentOffset == other.contentOffset)
        }

        /// The entry of packed system frame number `number` (its position among them), frame index `index`.
        @inline(__always)
        static func packedSystemFrame(number: Int, index: Int) -> Entry {
            Entry(
                kind: .packedSystemFrame, flags: 0, index: UInt32(number), integer: Int64(index), location: 0,
                backdropAlpha: 0, contentOffset: 0)
        }

        /// The entry of a steady run's frame `index`: the run's words are packed frame number
        /// `number`, lanes 0–2 of `lanes` its moving words (`lanesInEntry`).
        @inline(__always)
        static func packedRunFrame(number: UInt32, index: Int, lanes: SIMD4<Double>) -> Entry {
            Entry(
                kind: .packedSystemFrame, flags: lanesInEntry, index: number, integer: Int64(index),
                location: lanes[0], backdropAlpha: lanes[1], contentOffset: lanes[2])
        }

        /// The words of a packed system frame: the `count` words at `words`, with lanes 0–2 written
        /// over the words `laneWords` names when the entry holds them (`lanesInEntry`).
        func withPackedWords<R>(
            _ words: UnsafeMutablePointer<UInt64>, count: Int, laneWords: (Int, Int, Int),
            _ body: (UnsafeMutablePointer<UInt64>) -> R
        ) -> R {
            guard flags & Entry.lanesInEntry != 0 else { return body(words) }
            return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { buffer in
                let frame = buffer.baseAddress.unsafelyUnwrapped
                frame.initialize(from: words, count: count)
                frame[laneWords.0] = location.bitPattern
                frame[laneWords.1] = backdropAlpha.bitPattern
                frame[laneWords.2] = contentOffset.bitPattern
                return body(frame)
            }
        }
    }

    /// The entries live in `storage[0..<count]`, room for `capacity` (kept here, so that an append
    /// reads no class field). Copies share the storage until one of them appends (checked appends
    /// copy a shared storage first, as Array does).
    private var storage: EntryStorage
    public private(set) var count = 0
    private var capacity: Int
    var events: [DelegateEvent] = []
    var systemFrames: [SystemFrame] = []
    var names: [String] = []
    /// The `contentInset` channel of frame records, by record position: only frames written with
    /// `SimulationOptions.recordContentInset` and a tracked scroll view have one (empty otherwise,
    /// so the packed entries stay as small as before).
    var contentInsets: [Int: Insets] = [:]
    /// `names` by name, for `nameIndex(_:)` once there are more than 8.
    private var nameIndices: [String: UInt32] = [:]
    /// Position of the last frame entry appended (-1: none), for `repeatsLastFrame`.
    private var lastFrameIndex = -1
    /// The layout of the packed system frames (nil until `usePackedFrames(_:)`), their words in
    /// `frameWords[0..<frameWordCount]` (room for `frameWordCapacity`), the words per frame (kept
    /// here, so that an append reads no layout), and how many there are.
    private(set) var frameLayout: SystemFrameLayout?
    private var frameWords: FrameWordStorage?
    private var frameWordCount = 0, frameWordCapacity = 0
    private var packedWordCount = 0
    private var packedFrameCount = 0
    /// The words of a steady run's three lanes in its frames (`MovingChannelRun.laneWords`) for
    /// the entries that hold them (`Entry.lanesInEntry`): the same for every run of a list (one
    /// system's).
    private var runLaneWords = (0, 0, 0)

    public init() {
        capacity = 16
        storage = EntryStorage.make(capacity: capacity)
    }
    public init(_ records: some Sequence<ResultRecord>) {
        self.init()
        for r in records { append(r) }
    }
    public init(arrayLiteral elements: ResultRecord...) { self.init(elements) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The entry at `i` (0 ≤ i < count).
    @inline(__always)
    func entry(_ i: Int) -> Entry {
        precondition(i >= 0 && i < count, "record index out of range")
        return storage.withUnsafeMutablePointerToElements { $0[i] }
    }

    public subscript(position: Int) -> ResultRecord {
        let e = entry(position)
        switch e.kind {
        case .didMove: return .event(time: e.integer, .didMove(location: e.location))
        case .event: return .event(time: e.integer, events[Int(e.index)])
        case .systemFrame: return .systemFrame(systemFrames[Int(e.index)])
        case .packedSystemFrame:
            let offset = Int(e.index) * packedWordCount
            return .systemFrame(
                frameWords.unsafelyUnwrapped.withUnsafeMutablePointerToElements { words in
                    e.withPackedWords(words + offset, count: packedWordCount, laneWords: runLaneWords) {
                        frameLayout.unsafelyUnwrapped.frame(index: Int(e.integer), words: $0, names: names)
                    }
                })
        case .frame:
            return .frame(
                FrameRecord(
                    index: Int(e.integer), location: e.location, state: names[Int(e.index)],
                    backdropAlpha: e.backdropAlpha,
                    contentOffset: e.flags & Entry.hasContentOffset != 0 ? e.contentOffset : nil,
                    isAttracting: e.flags & Entry.isAttracting != 0, isDragging: e.flags & Entry.isDragging != 0,
                    scrollLocked: e.flags & Entry.hasScrollLocked != 0 ? e.flags & Entry.scrollLocked != 0 : nil,
                    contentInset: contentInsets.isEmpty ? nil : contentInsets[position]))
        }
    }

    /// Number of frame records.
    public var frameCount: Int {
        storage.withUnsafeMutablePointerToElements { p in
            var n = 0
            for i in 0..<count where p[i].kind == .frame || p[i].kind == .systemFrame || p[i].kind == .packedSystemFrame
            { n += 1 }
            return n
        }
    }

    /// Reserves room for `n` records.
    public mutating func reserveCapacity(_ n: Int) {
        if n > capacity || !isKnownUniquelyReferenced(&storage) { reallocate(capacity: Swift.max(n, capacity)) }
    }

    /// Reserves room for a replay's `n` records (no regrowth copies while it writes them), and for
    /// the events other than frames and `didMove` among them, which are kept whole beside the
    /// packed entries: n/16, at most 16,384 (a FloatingPanel drag writes about eight per gesture, a
    /// DrawerKit gesture with its two transitions about eighteen; n counts two records per frame
    /// of the trace's span, so n/16 covers one event per eight frames). Room never written costs
    /// no memory page.
    mutating func reserveForReplay(_ n: Int) {
        reserveCapacity(n)
        events.reserveCapacity(Swift.min(n / 16, 1 << 14))
    }

    /// Appends one record.
    public mutating func append(_ record: ResultRecord) {
        switch record {
        case .event(let time, .didMove(let location)): appendDidMove(time: time, location: location)
        case .event(let time, let event): appendEvent(time: time, event)
        case .systemFrame(let f): appendSystemFrame(f)
        case .frame(let f):
            var flags: UInt8 = 0
            if f.isAttracting { flags |= Entry.isAttracting }
            if f.isDragging { flags |= Entry.isDragging }
            if f.contentOffset != nil { flags |= Entry.hasContentOffset }
            if let locked = f.scrollLocked { flags |= Entry.hasScrollLocked | (locked ? Entry.scrollLocked : 0) }
            if let inset = f.contentInset { contentInsets[count] = inset }
            lastFrameIndex = count
            appendEntry(
                Entry(
                    kind: .frame, flags: flags, index: nameIndex(f.state), integer: Int64(f.index),
                    location: f.location, backdropAlpha: f.backdropAlpha, contentOffset: f.contentOffset ?? 0),
                owned: false)
        }
    }

    /// Appends a `didMove` at `time` µs. `owned`: see `appendEntry(_:owned:)`.
    @inline(__always)
    mutating func appendDidMove(time: Microseconds, location: Double, owned: Bool = false) {
        appendEntry(
            Entry(
                kind: .didMove, flags: 0, index: 0, integer: time,
                location: location, backdropAlpha: 0, contentOffset: 0), owned: owned)
    }

    /// Appends any other event at `time` µs. `owned`: see `appendEntry(_:owned:)`.
    mutating func appendEvent(time: Microseconds, _ event: consuming DelegateEvent, owned: Bool = false) {
        appendEntry(
            Entry(
                kind: .event, flags: 0, index: UInt32(events.count), integer: time,
                location: 0, backdropAlpha: 0, contentOffset: 0), owned: owned)
        events.append(event)
    }

    /// Appends a frame of a panel system other than FloatingPanel.
    mutating func appendSystemFrame(_ frame: SystemFrame) {
        appendEntry(
            Entry(
                kind: .systemFrame, flags: 0, index: UInt32(systemFrames.count), integer: Int64(frame.index),
                location: 0, backdropAlpha: 0, contentOffset: 0), owned: false)
        systemFrames.append(frame)
    }

    /// Starts packed system frames laid out as `layout` (once, before the first of them): enters
    /// its vocabulary into the name table first, in order.
    mutating func usePackedFrames(_ layout: SystemFrameLayout) {
        precondition(frameLayout == nil, "a record list holds the packed frames of one layout")
        frameLayout = layout
        packedWordCount = layout.wordCount
        for name in layout.vocabulary { _ = nameIndex(name) }
    }

    /// Reserves room for the words of `n` packed system frames (after `usePackedFrames(_:)`).
    mutating func reservePackedFrames(_ n: Int) {
        guard packedWordCount > 0 else { return }
        let words = n * packedWordCount
        if words > frameWordCapacity || !isKnownUniquelyReferenced(&frameWords) {
            reallocateFrameWords(capacity: Swift.max(words, frameWordCapacity))
        }
    }

    /// Appends `frame` as frame number `index`, packed by its layout (`usePackedFrames(_:)` first)
    /// straight into the words after the last frame's (nothing is allocated while there is room).
    /// `owned`: see `appendEntry(_:owned:)`.
    /// - Complexity: O(words per frame), amortized.
    @inline(__always)
    mutating func appendPackedFrame<Frame: PackedSystemFrame>(_ frame: Frame, index: Int, owned: Bool = false) {
        let n = packedWordCount
        if frameWordCount &+ n > frameWordCapacity || (!owned && !isKnownUniquelyReferenced(&frameWords)) {
            reallocateFrameWords(capacity: Swift.max(2 * frameWordCapacity, frameWordCount + n, 64 * n))
        }
        let start = frameWordCount
        frameWords.unsafelyUnwrapped.withUnsafeMutablePointerToElements { frame.pack(at: $0 + start) }
        frameWordCount = start &+ n
        appendEntry(.packedSystemFrame(number: packedFrameCount, index: index), owned: owned)
        packedFrameCount &+= 1
    }

    /// Appends `run.frame(values)` as frame number k for every k in `indices` until the run ends,
    /// in order, except a frame that is `==` to the one kept before it (the first is compared
    /// with `last`, and kept when there is none), packed as `appendPackedFrame(_:index:owned:)` packs it. Within the run a frame
    /// is `==` to the one kept before it exactly when every lane of its moving channels is `==`
    /// to that frame's (`MovingChannelRun.frame`), so the frames after the first are compared lane
    /// by lane. For a run with `laneWords`, only its first kept frame is packed, and every kept
    /// frame's entry holds its three lanes (`Entry.packedRunFrame`; debug builds check the words
    /// each entry reads back against `pack`).
    /// Room for the whole run is made once, before the first frame; the list must be its storage's
    /// only owner (a `SystemRecorder`'s).
    /// - Returns: the last frame kept (`last` when none was) and the first k not appended: the k at
    ///   which `run` ended, else `indices.upperBound`.
    /// - Complexity: O(indices.count · words per frame), plus one reallocation at most per storage.
    @inline(__always)
    mutating func appendMovingChannelRun<Run: MovingChannelRun>(
        _ indices: Range<Int>, after last: Run.Frame?, _ run: inout Run
    ) -> (last: Run.Frame?, end: Int) {
        guard makeRoomForPackedFrameRun(indices.count) else { return (last, indices.upperBound) }
        if let laneWords = Run.laneWords { runLaneWords = laneWords }
        var tail = MovingRunTail(
            entryCount: count, number: packedFrameCount, wordCount: frameWordCount, wordsPerFrame: packedWordCount)
        var k = indices.lowerBound
        storage.withUnsafeMutablePointerToElements { entries in
            frameWords.unsafelyUnwrapped.withUnsafeMutablePointerToElements { words in
                let end = indices.upperBound
                var block = run.values(fromFrame: k)
                // Equal to the first frame's moving channels when that frame is `last`'s equal;
                // else NaN, unequal to anything (the first frame is kept).
                if let last, block.count > 0 && run.frame(block.frame0) == last { tail.kept = block.frame0 }
                // The end of the current block's frames in the run and in `indices`.
                var stop = k
                while true {
                    stop = k &+ Swift.min(block.count, end &- k)
                    guard k < stop else { break }
                    tail.append(block.frame0, index: k, run, entries, words)
                    guard k &+ 1 < stop else { break }
                    tail.append(block.frame1, index: k &+ 1, run, entries, words)
                    guard k &+ 2 < stop else { break }
                    tail.append(block.frame2, index: k &+ 2, run, entries, words)
                    guard k &+ 3 < stop else { break }
                    tail.append(block.frame3, index: k &+ 3, run, entries, words)
                    k &+= 4
                    guard k < end else { break }
                    block = run.values(fromFrame: k)
                }
                k = stop
            }
        }
        let wrote = tail.entryCount != count
        (count, packedFrameCount, frameWordCount) = (tail.entryCount, tail.number, tail.wordCount)
        return (wrote ? run.frame(tail.kept) : last, k)
    }

    /// Where `appendMovingChannelRun` appends its next frame, and the moving channels of the last
    /// frame it kept.
    private struct MovingRunTail {
        var entryCount: Int, number: Int, wordCount: Int
        let wordsPerFrame: Int
        var kept = SIMD4<Double>(repeating: .nan)
        /// For a run with `laneWords`: the packed frame number of the run's words, once it kept a
        /// frame (nil before); converted once for the run's entries.
        var runNumber: UInt32?

        /// Appends the frame whose moving channels are `v` as frame `index` unless every lane is
        /// `==` to `kept`'s.
        @inline(__always)
        mutating func append<Run: MovingChannelRun>(
            _ v: SIMD4<Double>, index: Int, _ run: Run, _ entries: UnsafeMutablePointer<Entry>,
            _ words: UnsafeMutablePointer<UInt64>
        ) {
            if all(v .== kept) { return }
            kept = v
            if let laneWords = Run.laneWords {
                let number = runNumber ?? UInt32(appendWords(v, run, words))
                runNumber = number
                let entry = Entry.packedRunFrame(number: number, index: index, lanes: v)
                #if DEBUG
                    entry.withPackedWords(
                        words + Int(number) * wordsPerFrame, count: wordsPerFrame, laneWords: laneWords
                    ) { RecordList.checkWrite(run.frame(v), $0, wordsPerFrame) }
                #endif
                entries[entryCount] = entry
            } else {
                entries[entryCount] = .packedSystemFrame(number: appendWords(v, run, words), index: index)
            }
            entryCount &+= 1
        }

        /// Packs `run.frame(v)` after the last frame's words; returns its packed frame number.
        @inline(__always)
        private mutating func appendWords<Run: MovingChannelRun>(
            _ v: SIMD4<Double>, _ run: Run, _ words: UnsafeMutablePointer<UInt64>
        ) -> Int {
            run.frame(v).pack(at: words + wordCount)
            wordCount &+= wordsPerFrame
            number &+= 1
            return number &- 1
        }
    }

    #if DEBUG
        /// Traps unless `words` hold `frame` packed (a run frame's entry read back against `pack`).
        fileprivate static func checkWrite<Frame: PackedSystemFrame>(
            _ frame: Frame, _ words: UnsafeMutablePointer<UInt64>, _ count: Int
        ) {
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { packed in
                frame.pack(at: packed.baseAddress!)
                for i in 0..<count {
                    precondition(packed[i] == words[i], "a run frame's words differ from pack in word \(i)")
                }
            }
        }
    #endif

    /// Makes room for `n` more packed frames and their entries; false when `n` is 0.
    @inline(__always)
    private mutating func makeRoomForPackedFrameRun(_ n: Int) -> Bool {
        guard n > 0 else { return false }
        let w = packedWordCount
        assert(w > 0, "usePackedFrames(_:) first")
        if count &+ n > capacity { reallocate(capacity: Swift.max(2 * capacity, count + n)) }
        if frameWordCount &+ n &* w > frameWordCapacity {
            reallocateFrameWords(capacity: Swift.max(2 * frameWordCapacity, frameWordCount + n * w))
        }
        return true
    }

    /// Moves the packed frames' words into a new storage of `capacity` (≥ frameWordCount) words.
    private mutating func reallocateFrameWords(capacity newCapacity: Int) {
        let fresh = FrameWordStorage.make(capacity: newCapacity)
        if let old = frameWords {
            let n = frameWordCount
            old.withUnsafeMutablePointerToElements { o in
                fresh.withUnsafeMutablePointerToElements { $0.initialize(from: o, count: n) }
            }
        }
        frameWords = fresh
        frameWordCapacity = newCapacity
    }

    /// Appends a frame entry. `owned`: see `appendEntry(_:owned:)`.
    @inline(__always)
    mutating func appendFrame(_ entry: Entry, owned: Bool = false) {
        lastFrameIndex = count
        appendEntry(entry, owned: owned)
    }

    /// Appends a frame entry with its `contentInset` channel (`SimulationOptions.recordContentInset`).
    mutating func appendFrame(_ entry: Entry, contentInset: Insets, owned: Bool = false) {
        contentInsets[count] = contentInset
        lastFrameIndex = count
        appendEntry(entry, owned: owned)
    }

    /// True when the last frame appended has the same values as the frame `entry` (its frame
    /// number aside, `Entry.sameFrameValues`): the replay drops such a frame. Compares with the
    /// stored entry, so the replay keeps no copy of the last frame.
    @inline(__always)
    func repeatsLastFrame(_ entry: Entry) -> Bool {
        let i = lastFrameIndex
        guard i >= 0 else { return false }
        return storage.withUnsafeMutablePointerToElements { $0[i] }.sameFrameValues(as: entry)
    }

    /// Appends a packed entry, copy-on-write like Array's append.
    ///
    /// `owned: true` skips the uniqueness check (a runtime call per append; two per simulated
    /// frame). Only the one list that produces records may pass it: the replay's core, which never
    /// hands its list out before it is done. A copy of that list may still read (appends write
    /// past its `count`) and append (its check sees the shared storage and copies first).
    /// - Complexity: O(1) amortized.
    @inline(__always)
    private mutating func appendEntry(_ e: Entry, owned: Bool) {
        if count == capacity || (!owned && !isKnownUniquelyReferenced(&storage)) {
            reallocate(capacity: Swift.max(2 * capacity, 16))
        }
        storage.withUnsafeMutablePointerToElements { $0[count] = e }
        count &+= 1  // count < capacity here
    }

    /// Moves the entries into a new storage of `capacity` (≥ count) entries, owned by this list.
    private mutating func reallocate(capacity newCapacity: Int) {
        let fresh = EntryStorage.make(capacity: newCapacity)
        let n = count
        storage.withUnsafeMutablePointerToElements { old in
            fresh.withUnsafeMutablePointerToElements { $0.initialize(from: old, count: n) }
        }
        storage = fresh
        capacity = newCapacity
    }

    /// The index of `name` in the name table, added if new.
    /// - Complexity: O(1) expected: a scan while the table has up to 8 names (a replay has a
    ///   handful), a dictionary lookup beyond.
    mutating func nameIndex(_ name: String) -> UInt32 {
        if names.count <= 8 {
            if let i = names.firstIndex(of: name) { return UInt32(i) }
        } else if let i = nameIndices[name] {
            return i
        }
        let i = UInt32(names.count)
        names.append(name)
        if names.count == 9 {
            for (k, n) in names.enumerated() { nameIndices[n] = UInt32(k) }
        } else if names.count > 9 {
            nameIndices[name] = i
        }
        return i
    }

    public static func == (a: RecordList, b: RecordList) -> Bool { a.elementsEqual(b) }

    /// Splits off the records before the last frame appended, for a replay that hands its records
    /// over as it goes (`replay(_:header:feed:options:sink:)`): returns them, and keeps the last
    /// frame and the records after it, since the next frame is compared with that one
    /// (`repeatsLastFrame`). Nil when no record precedes the last frame, or the list holds packed
    /// system frames.
    /// - Complexity: O(records kept) (they are copied to a new list); the records returned keep
    ///   the old storage.
    @inline(never)
    mutating func takeRecordsBeforeLastFrame() -> RecordList? {
        let k = lastFrameIndex
        // (Lists of packed system frames, the other systems' recorder, are not split.)
        guard k > 0, frameLayout == nil else { return nil }
        var head = self
        head.count = k
        head.lastFrameIndex = -1
        // The kept entries move to a new list with the same name table (the producer keeps name
        // indices), their events and system frames renumbered, their content insets shifted.
        var rest = RecordList()
        rest.names = names
        rest.nameIndices = nameIndices
        rest.reserveCapacity(Swift.max(2 * (count - k), 1024))
        for i in k..<count {
            var e = entry(i)
            switch e.kind {
            case .event:
                rest.events.append(events[Int(e.index)])
                e.index = UInt32(rest.events.count - 1)
            case .systemFrame:
                rest.systemFrames.append(systemFrames[Int(e.index)])
                e.index = UInt32(rest.systemFrames.count - 1)
            case .frame, .didMove, .packedSystemFrame: break
            }
            if !contentInsets.isEmpty, let inset = contentInsets[i] { rest.contentInsets[i - k] = inset }
            rest.appendEntry(e, owned: false)
        }
        rest.lastFrameIndex = 0
        self = rest
        return head
    }

    /// Splits off every record, for a producer that compares its next frame with a copy of its
    /// last one rather than with the list (`SystemRecorder.takeRecords()`): returns them, and
    /// leaves this list empty with the same name table (so name indices the producer keeps stay
    /// valid) and the same packed-frame layout, with room for as many records and packed frames
    /// as it hands over (a streaming replay's batches are alike).
    /// - Complexity: O(names); the records returned keep the old storage.
    @inline(never)
    mutating func takeAllRecords() -> RecordList {
        var rest = RecordList()
        rest.names = names
        rest.nameIndices = nameIndices
        rest.frameLayout = frameLayout
        rest.packedWordCount = packedWordCount
        rest.reserveCapacity(count)
        rest.reservePackedFrames(packedFrameCount)
        let head = self
        self = rest
        return head
    }
}

/// The packed entries of a `RecordList` (no header: the list keeps count and capacity). `Entry`
/// is plain data, so nothing is deinitialized. Mutated only through a list that owns it alone
/// (`isKnownUniquelyReferenced`), as Array's buffer is; hence `RecordList`'s unchecked `Sendable`.
final class EntryStorage: ManagedBuffer<Void, RecordList.Entry> {
    static func make(capacity: Int) -> EntryStorage {
        unsafeDowncast(EntryStorage.create(minimumCapacity: capacity) { _ in }, to: EntryStorage.self)
    }
}

/// The outcome of replaying one trace.
public struct SimulationResult: Sendable, Equatable {
    /// Events and frames in call order (trace-format.md §2), packed; reads as `ResultRecord`s.
    public var records: RecordList
    /// Non-fatal notes (e.g. ignored fingers), in the order they arose.
    public var warnings: [String]
    /// True when the 10 s settle budget past the last sample ran out (no `end` sample).
    public var budgetExceeded: Bool
    public init(records: RecordList = [], warnings: [String] = [], budgetExceeded: Bool = false) {
        self.records = records
        self.warnings = warnings
        self.budgetExceeded = budgetExceeded
    }
    /// A result from an array of records (tests, tools that build results by hand).
    public init(records: [ResultRecord], warnings: [String] = [], budgetExceeded: Bool = false) {
        self.init(records: RecordList(records), warnings: warnings, budgetExceeded: budgetExceeded)
    }
}
