/// Typed, packed frame records of the panel systems other than FloatingPanel: each system declares
/// its frame channels once (`SystemFrameLayout`) and writes every frame as a fixed number of
/// 64-bit words into its `RecordList`; reading a record builds the `SystemFrame` view from them.

/// The channels of one panel system's frame records, in the order they are written
/// (trace-format.md §2; drawerkit.md, lnpopup.md and uisheet.md §2.3), each with its kind and
/// whether a frame may leave it out. Declared once per system (`PackedSystemFrame.layout`).
///
/// A frame is `wordCount` words: word 0 holds, in channel order, for an optional channel a bit set
/// when it is present, then for a `bool` channel a bit for its value; then every `number` and `name` channel
/// has a word of its own, in channel order: a number's IEEE 754 bits, a name's index in the record
/// list's name table (`nullName` for JSON `null`). An absent channel's word is 0.
struct SystemFrameLayout: Sendable {
    enum Kind: Sendable, Equatable {
        /// A `Double` (`FieldValue.number`).
        case number
        /// `FieldValue.bool`.
        case bool
        /// A string from the record list's name table (`FieldValue.string`), or `null`.
        case name
    }

    struct Channel: Sendable, Equatable {
        let key: String
        let kind: Kind
        /// The channel may be absent from a frame (it is then not written at all).
        let isOptional: Bool
        /// Word of a number or name channel (≥ 1); bit in word 0 of a bool's value, of an optional
        /// channel's presence (-1 when neither).
        fileprivate(set) var word = 0, valueBit = -1, presenceBit = -1

        static func number(_ key: String, optional: Bool = false) -> Channel {
            Channel(key: key, kind: .number, isOptional: optional)
        }
        static func bool(_ key: String, optional: Bool = false) -> Channel {
            Channel(key: key, kind: .bool, isOptional: optional)
        }
        static func name(_ key: String) -> Channel { Channel(key: key, kind: .name, isOptional: false) }
    }

    /// The name index that stands for JSON `null` in a `name` channel.
    static let nullName = UInt32.max

    let channels: [Channel]
    /// Words per frame: 1 + the number and name channels.
    let wordCount: Int
    /// Names the system's frames use, entered first into the record list's name table in this
    /// order, so that a system can write them by position (`vocabulary.firstIndex(of:)`) without
    /// looking strings up per frame.
    let vocabulary: [String]

    /// - Precondition: at most 64 bits of bool values and presence in word 0.
    init(_ channels: [Channel], vocabulary: [String] = []) {
        var placed: [Channel] = []
        var word = 1
        var bit = 0
        for var c in channels {
            if c.isOptional {
                c.presenceBit = bit
                bit += 1
            }
            switch c.kind {
            case .bool:
                c.valueBit = bit
                bit += 1
            case .number, .name:
                c.word = word
                word += 1
            }
            placed.append(c)
        }
        precondition(bit <= 64, "too many bool and optional channels for one packed frame")
        self.channels = placed
        wordCount = word
        self.vocabulary = vocabulary
    }

    /// The `SystemFrame` view of the packed frame at `words` (frame number `index`), resolving
    /// names in `names`. O(channels).
    func frame(index: Int, words: UnsafePointer<UInt64>, names: [String]) -> SystemFrame {
        let bits = words[0]
        var out: [RecordField] = []
        out.reserveCapacity(channels.count)
        for c in channels {
            if c.isOptional && bits & (1 << UInt64(c.presenceBit)) == 0 { continue }
            switch c.kind {
            case .number: out.append(RecordField(c.key, .number(Double(bitPattern: words[c.word]))))
            case .bool: out.append(RecordField(c.key, .bool(bits & (1 << UInt64(c.valueBit)) != 0)))
            case .name:
                let i = words[c.word]
                out.append(RecordField(c.key, i == UInt64(Self.nullName) ? .null : .string(names[Int(i)])))
            }
        }
        return SystemFrame(index: index, channels: out)
    }
}

/// A panel system's frame record as a fixed-size value: it declares its channels once and packs
/// itself, channel by channel in layout order, into a record list's words.
///
/// Two frames must be `==` exactly when their `SystemFrame` views have the same values
/// (`SystemFrame.sameValues(as:)`): every channel's field compared with `==` does so (numbers by
/// `==`, an absent channel equal only to an absent one, name indices equal exactly when the
/// names are), as the synthesized `==` of a struct of these fields would.
protocol PackedSystemFrame: Equatable {
    /// The channels, declared once (a `static let`).
    static var layout: SystemFrameLayout { get }
    /// Writes the channels of `layout`, in order, with `writer`.
    func pack(into writer: inout PackedFrameWriter)
}

extension PackedSystemFrame {
    /// Writes this frame's `layout.wordCount` words at `words` (the bool and presence bits first,
    /// then one word per number or name channel). O(channels).
    @inline(__always)
    func pack(at words: UnsafeMutablePointer<UInt64>) {
        #if DEBUG
            var writer = PackedFrameWriter(words: words, layout: Self.layout)
        #else
            var writer = PackedFrameWriter(words: words)
        #endif
        pack(into: &writer)
        writer.finish()
    }
}

/// A steady run: frames of one fixed frame in which up to four number channels move, evaluated
/// four frames at a time (`RecordList.appendMovingChannelRun`, `SystemRecorder.recordRun`). For a
/// run whose other channels (names, bools, absent values) stay put while only animations run.
protocol MovingChannelRun {
    associatedtype Frame: PackedSystemFrame
    /// The moving channels at frames `k` … `k` + 3 (lane i of `frame`j is channel i at frame
    /// k + j; a lane no channel uses holds the same value in every frame), and how many of those
    /// frames belong to the run: fewer than four when it ends at one of them (that frame needs
    /// the system's full step). Asked for increasing `k`, four apart, until a block ends the run.
    mutating func values(fromFrame k: Int) -> MovingChannelBlock
    /// The run's frame whose moving channels hold `values`; every channel not moving is the
    /// same in all of them, and the frames of two values are `==` exactly when every lane is.
    func frame(_ values: SIMD4<Double>) -> Frame
    /// The words that lanes 0, 1 and 2 of `values` fill (their IEEE 754 bits) in `frame(values)`
    /// packed, when they are the only words that differ between the run's frames (lane 3 then
    /// moves no channel): the record list then packs the run's first frame once and keeps each
    /// frame's three lanes in its entry. Nil when other words move too (each frame is packed).
    static var laneWords: (Int, Int, Int)? { get }
}

/// The moving channels of four consecutive frames (`MovingChannelRun.values(fromFrame:)`).
struct MovingChannelBlock {
    var frame0, frame1, frame2, frame3: SIMD4<Double>
    /// The frames that belong to the run (0…4; the run ends at frame `count` of the block when
    /// below 4).
    var count = 4
}

/// Writes one frame's channels, in layout order, into its words (see `SystemFrameLayout`). Debug
/// builds check every call against the layout.
struct PackedFrameWriter {
    private let words: UnsafeMutablePointer<UInt64>
    private var bits: UInt64 = 0
    private var nextWord = 1, nextBit = 0
    #if DEBUG
        private let layout: SystemFrameLayout
        private var channel = 0
    #endif

    #if DEBUG
        /// A writer for the frame at `words`, checked against `layout`.
        init(words: UnsafeMutablePointer<UInt64>, layout: SystemFrameLayout) {
            self.words = words
            self.layout = layout
        }
    #else
        /// A writer for the frame at `words` (`wordCount` words of its layout).
        init(words: UnsafeMutablePointer<UInt64>) { self.words = words }
    #endif

    @inline(__always)
    private mutating func check(_ kind: SystemFrameLayout.Kind, optional: Bool) {
        #if DEBUG
            precondition(channel < layout.channels.count, "more channels written than the layout declares")
            let c = layout.channels[channel]
            precondition(
                c.kind == kind && c.isOptional == optional,
                "channel \(channel) (\(c.key)) is declared \(c.kind)\(c.isOptional ? "?" : "") but written as \(kind)\(optional ? "?" : "")"
            )
            channel += 1
        #endif
    }

    /// A `number` channel.
    @inline(__always)
    mutating func number(_ x: Double) {
        check(.number, optional: false)
        words[nextWord] = x.bitPattern
        nextWord &+= 1
    }

    /// An optional `number` channel: written when `x` is not nil.
    @inline(__always)
    mutating func number(_ x: Double?) {
        check(.number, optional: true)
        if let x {
            bits |= 1 << UInt64(nextBit)
            words[nextWord] = x.bitPattern
        } else {
            words[nextWord] = 0
        }
        nextBit &+= 1
        nextWord &+= 1
    }

    /// A `bool` channel.
    @inline(__always)
    mutating func bool(_ b: Bool) {
        check(.bool, optional: false)
        if b { bits |= 1 << UInt64(nextBit) }
        nextBit &+= 1
    }

    /// An optional `bool` channel: written when `b` is not nil.
    @inline(__always)
    mutating func bool(_ b: Bool?) {
        check(.bool, optional: true)
        if let b {
            bits |= 1 << UInt64(nextBit)
            if b { bits |= 1 << UInt64(nextBit &+ 1) }
        }
        nextBit &+= 2
    }

    /// A `name` channel: an index in the record list's name table (a position in the layout's
    /// `vocabulary`, or one `RecordList.nameIndex(_:)` returned), or `SystemFrameLayout.nullName`.
    @inline(__always)
    mutating func name(_ index: UInt32) {
        check(.name, optional: false)
        words[nextWord] = UInt64(index)
        nextWord &+= 1
    }

    /// Stores the bool and presence bits (after the last channel).
    @inline(__always)
    mutating func finish() {
        #if DEBUG
            precondition(
                channel == layout.channels.count,
                "\(layout.channels.count - channel) channels of the layout not written")
        #endif
        words[0] = bits
    }
}

/// The words of a `RecordList`'s packed system frames (no header: the list keeps count and
/// capacity). Plain data; mutated only through a list that owns it alone, like `EntryStorage`.
final class FrameWordStorage: ManagedBuffer<Void, UInt64> {
    static func make(capacity: Int) -> FrameWordStorage {
        unsafeDowncast(FrameWordStorage.create(minimumCapacity: capacity) { _ in }, to: FrameWordStorage.self)
    }
}
