/// One recording of a panel in an app: a trace file written while the user touches the panel.
#if canImport(UIKit)
    import UIKit
#else
    import PanelSimUIKitStubs
#endif
import Foundation
import PanelSimCore
import PanelTrace

/// What the real panel did at one moment: the fields of an `observed` sample (trace-format.md
/// §1.2). Never an input of a replay; `panelsim fidelity` and `tune` compare replays with it.
public struct PanelObservation: Sendable, Equatable {
    /// Surface location on the main axis (pt, container coordinates): FloatingPanel's surface
    /// location, the drawer's, sheet's or popup content's top edge.
    public var location: Double?
    /// The state the device reported (a FloatingPanel state, drawer state, detent identifier or
    /// popup presentation state name).
    public var state: String?
    /// The tracked list's content offset on the main axis (pt).
    public var contentOffset: Double?
    /// Backdrop alpha, 0…1.
    public var backdropAlpha: Double?
    /// A sheet's dimming fraction, 0…1.
    public var dimming: Double?
    public init(
        location: Double? = nil, state: String? = nil, contentOffset: Double? = nil,
        backdropAlpha: Double? = nil, dimming: Double? = nil
    ) {
        self.location = location
        self.state = state
        self.contentOffset = contentOffset
        self.backdropAlpha = backdropAlpha
        self.dimming = dimming
    }
}

/// What `PanelRecording.finish()` left on disk.
public struct FinishedRecording: Sendable, Equatable {
    /// The trace file, closed and synchronized (`fsync`).
    public var path: String
    /// Sample lines written after the header (the `end` sample included).
    public var sampleCount: Int
    /// Samples the trace contract refused (not written), with line, field and reason; at most 20.
    public var refused: [TraceError]
}

/// Records one trace of one panel: touches captured at the window, the real panel's observations,
/// the app's calls, then `end`, into one file per recording (`RecordingFile`).
///
/// Time is the trace's: seconds since the recording started, from `UITouch.timestamp` for touches
/// and `CACurrentMediaTime()` (or a display link's `timestamp`) for everything else, the same
/// clock. A sample stamped before the previous one (a touch delivered after an observation made
/// later) is written at the previous one's time, so time never goes backwards. Lines are checked
/// by `TraceRecorder` and written by a `BackgroundTraceSink`: the main thread never waits for the
/// disk; each line is `fsync`ed on a background queue.
///
/// The hooks UIKit drives (`windowWillSend`, `observe`, …) never throw: a sample the trace
/// contract refuses is kept in `refused` (and not written); a file error stops the recording and is
/// thrown by `finish()`. Main thread only.
@MainActor
public final class PanelRecording {
    /// The header as written (its `name` is the file's base name).
    public let header: TraceHeader
    /// The trace file.
    public let path: String
    /// The header fields written as assumptions (empty under `UnreadFieldPolicy.refuse`).
    public let assumed: [UnreadHeaderField]
    /// The view whose coordinates touches are written in (the panel's container).
    public private(set) weak var container: UIView?
    /// The release velocity of finger 0 (pt/s, container axes), read after UIKit delivered its
    /// `ended` touch: the panel system's pan recognizer where it exposes one; nil when it did not
    /// recognize a pan. Without it `ended` samples carry no velocity and the replay estimates one.
    public var releaseVelocity: (@MainActor () -> CGPoint?)?
    /// Samples refused so far (at most 20 kept).
    public private(set) var refused: [TraceError] = []
    public private(set) var isFinished = false

    private let recorder: TraceRecorder
    private let clock: @MainActor () -> TimeInterval
    private let start: TimeInterval
    private var lastTime = 0.0
    private var failure: TraceError?
    private var fingers: [ObjectIdentifier: Int] = [:]
    private var delivering = false
    private var pendingEnds: [(key: ObjectIdentifier, id: Int, location: CGPoint, timestamp: TimeInterval)] = []
    private var deferred: [(kind: SampleKind, timestamp: TimeInterval)] = []
    private var lastObservation: PanelObservation?
    private var lastScroll: ScrollSample?
    private var frameSampler: (@MainActor () -> PanelObservation?)?
    private var frameDriver: AnyObject?

    /// Starts a recording of the panel in `container` with the header `reading` built, in a new
    /// file of `folder` (the app's Documents folder when nil) named by
    /// `RecordingFile.name(system:date:device:)`. The header gets the file's base name as `name`,
    /// `source.kind` "recorded", `source.origin` "PanelSimRecorder" and `source.device` (model
    /// identifier, system name and version); `recognizer.velocity` is `recorded`.
    /// - Parameters:
    ///   - policy: what to do when `reading.unread` is not empty.
    ///   - clock: the media clock (`CACurrentMediaTime`), s; tests pass their own.
    /// - Throws: `RecorderError.headerFieldsMissing` (policy `.refuse`), `.noDocumentsFolder`,
    ///   `.trace` for a header the trace loader rejects or a file that cannot be created.
    public init(
        reading: HeaderReading, container: UIView, policy: UnreadFieldPolicy = .refuse,
        folder: URL? = nil, date: Date = Date(), device: String = RecordingFile.deviceModel,
        clock: @escaping @MainActor () -> TimeInterval = { CACurrentMediaTime() }
    ) throws(RecorderError) {
        if policy == .refuse, !reading.unread.isEmpty {
            throw .headerFieldsMissing(HeaderFieldsMissing(fields: reading.unread))
        }
        let directory: URL
        if let folder { directory = folder } else { directory = try RecordingFile.documentsFolder() }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .trace(
                TraceError(
                    file: directory.path, line: 0, field: "", message: "cannot create the folder: \(error)", kind: .io))
        }
        let path = RecordingFile.unusedPath(
            in: directory, name: RecordingFile.name(system: reading.system, date: date, device: device))
        var header = reading.header
        header.name = String((path as NSString).lastPathComponent.dropLast(6))
        header.source.kind = "recorded"
        header.source.origin = "PanelSimRecorder"
        header.source.device = "\(device) \(UIDevice.current.systemName) \(UIDevice.current.systemVersion)"
        header.recognizer.velocity = .recorded
        if !reading.unread.isEmpty {
            let list = reading.unread.map { "\($0.field) (\($0.reason))" }.joined(separator: "; ")
            header.description += (header.description.isEmpty ? "" : " ") + "Not read from the app, assumed: \(list)."
        }
        do {
            let sink = BackgroundTraceSink(try FileTraceSink(path: path), label: "panelsim.recorder")
            recorder = try TraceRecorder(header: header, sink: sink, file: path)
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw .trace(error)
        }
        self.header = header
        self.path = path
        self.assumed = reading.unread
        self.container = container
        self.clock = clock
        start = clock()
    }

    /// Samples written so far after the header.
    public var sampleCount: Int { recorder.sampleCount }

    // MARK: Touches at the window

    /// Call from `UIWindow.sendEvent(_:)` before `super.sendEvent(_:)` (or use `RecordingWindow`).
    /// Writes the event's touches in container coordinates, stamped with `UITouch.timestamp`:
    /// `began` takes the lowest finger id not in use (0 drives the replay's recognizers) and the id
    /// stays with that `UITouch` until it ends or is cancelled; `moved`, `ended` and `cancelled` of
    /// fingers that began while recording; `stationary` and the pointer-region phases are skipped.
    /// An `ended` of finger 0 waits for `windowDidSend(_:)` when `releaseVelocity` is set, so that
    /// the velocity is the one the recognizer computed from this very touch; what the app records
    /// while UIKit delivers the event (delegate calls) is written after the touches.
    /// - Complexity: O(t log t) for t touches in the event.
    public func windowWillSend(_ event: UIEvent) {
        guard !isFinished, event.type == .touches, let container, let window = container.window,
            let touches = event.allTouches
        else { return }
        delivering = true
        let ordered = touches.filter { $0.window === window }.map { touch in
            (touch: touch, point: touch.location(in: container))
        }.sorted { a, b in
            if a.touch.timestamp != b.touch.timestamp { return a.touch.timestamp < b.touch.timestamp }
            return a.point.x != b.point.x ? a.point.x < b.point.x : a.point.y < b.point.y
        }
        for (touch, point) in ordered {
            let key = ObjectIdentifier(touch)
            switch touch.phase {
            case .began:
                guard fingers[key] == nil else { continue }
                let taken = Set(fingers.values)
                let id = (0...).first { !taken.contains($0) }!
                fingers[key] = id
                writeTouch(.began, id: id, point, touch.timestamp, velocity: nil)
            case .moved:
                guard let id = fingers[key] else { continue }
                writeTouch(.moved, id: id, point, touch.timestamp, velocity: nil)
            case .ended, .cancelled:
                guard let id = fingers[key] else { continue }
                if touch.phase == .ended, id == 0, releaseVelocity != nil {
                    pendingEnds.append((key, id, point, touch.timestamp))
                } else {
                    writeTouch(
                        touch.phase == .ended ? .ended : .cancelled, id: id, point, touch.timestamp, velocity: nil)
                    fingers[key] = nil
                }
            default:
                continue
            }
        }
    }

    /// Call from `UIWindow.sendEvent(_:)` after `super.sendEvent(_:)`: writes the `ended` samples
    /// that waited for their release velocity, then what was recorded during delivery.
    public func windowDidSend(_ event: UIEvent) { endDelivery() }

    private func endDelivery() {
        guard delivering else { return }
        delivering = false
        for end in pendingEnds {
            let v = releaseVelocity?()
            writeTouch(
                .ended, id: end.id, end.location, end.timestamp,
                velocity: v.map { Point(x: Double($0.x), y: Double($0.y)) })
            fingers[end.key] = nil
        }
        pendingEnds = []
        let queued = deferred
        deferred = []
        for sample in queued { write(sample.kind, timestamp: sample.timestamp) }
    }

    private func writeTouch(_ phase: TouchPhase, id: Int, _ point: CGPoint, _ timestamp: TimeInterval, velocity: Point?)
    {
        write(
            .touch(
                TouchSample(
                    phase: phase, id: id, location: Point(x: Double(point.x), y: Double(point.y)), velocity: velocity)),
            timestamp: timestamp)
    }

    // MARK: Observations, scroll samples, calls

    /// Records what the real panel did (an `observed` sample) at `timestamp` (media clock, s; now
    /// when nil). An observation equal to the previous one is not written again.
    public func observe(_ observation: PanelObservation, at timestamp: TimeInterval? = nil) {
        guard observation != lastObservation else { return }
        lastObservation = observation
        var sample = ObservedSample(
            location: observation.location, state: observation.state,
            contentOffset: observation.contentOffset, backdropAlpha: observation.backdropAlpha)
        sample.dimming = observation.dimming
        emit(.observed(sample), at: timestamp)
    }

    /// Records the tracked scroll view as the device reports it (a `scroll` sample: content offset,
    /// content size, `isDecelerating`); call from `scrollViewDidScroll(_:)`. Unchanged values are
    /// not written again.
    public func observeScroll(_ scrollView: UIScrollView, at timestamp: TimeInterval? = nil) {
        let o = scrollView.contentOffset
        let s = scrollView.contentSize
        let sample = ScrollSample(
            contentOffset: Point(x: Double(o.x), y: Double(o.y)),
            contentSize: Size(width: Double(s.width), height: Double(s.height)),
            isDecelerating: scrollView.isDecelerating)
        guard sample != lastScroll else { return }
        lastScroll = sample
        emit(.scroll(sample), at: timestamp)
    }

    /// Records an app call or any other sample kind (e.g. `.call(.move(to: .full, animated: true))`,
    /// `.drawerCall(.present)`) at `timestamp` (now when nil). Calls are replay inputs: record each
    /// call the app makes on the panel, when it makes it.
    public func record(_ kind: SampleKind, at timestamp: TimeInterval? = nil) {
        emit(kind, at: timestamp)
    }

    /// Records an `environment` sample when the container's size or safe area changed (rotation,
    /// split view); nothing otherwise. Not for LNPopup traces, which have no environment samples.
    public func containerDidChangeLayout() {
        guard let container else { return }
        var unread: [UnreadHeaderField] = []
        var environment = PanelEnvironment.read(from: container, unread: &unread)
        let current = recorder.current.environment
        environment.displayScale = current.displayScale
        environment.frameRate = current.frameRate
        guard environment.container != current.container || environment.safeArea != current.safeArea else { return }
        emit(.environment(environment), at: nil)
    }

    private func emit(_ kind: SampleKind, at timestamp: TimeInterval?) {
        let t = timestamp ?? clock()
        if delivering { deferred.append((kind, t)) } else { write(kind, timestamp: t) }
    }

    // MARK: Frames

    /// Reads an observation once per display frame with `read` (e.g. the presentation layer's
    /// frame of a drawer, sheet or popup, which no delegate reports while UIKit animates it). Where
    /// the Objective-C runtime exists a `CADisplayLink` on the main run loop calls
    /// `frameDidFire(_:)`; elsewhere nothing does (tests call it). Replaces an earlier reader.
    public func sampleEveryFrame(_ read: @escaping @MainActor () -> PanelObservation?) {
        frameSampler = read
        if frameDriver == nil { frameDriver = FrameDriver.start(for: self) }
    }

    /// One display frame: observes what the frame reader returns, stamped with the link's
    /// `timestamp`.
    public func frameDidFire(_ link: CADisplayLink) {
        guard !isFinished, let frameSampler, let observation = frameSampler() else { return }
        observe(observation, at: link.timestamp)
    }

    // MARK: Finishing

    /// Ends the trace: writes what waited for the end of an event delivery, an `end` sample now,
    /// stops the frame reader, and closes the file once the background queue has written and
    /// synchronized (`fsync`) every line. Further calls do nothing and return the same result.
    /// - Throws: `RecorderError.trace` when a line could not be written (the file keeps what was
    ///   written before; `TraceRecovery.loadRecovering(path:)` loads it).
    @discardableResult
    public func finish() throws(RecorderError) -> FinishedRecording {
        if !isFinished {
            endDelivery()
            write(.end, timestamp: clock())
            isFinished = true
            FrameDriver.stop(frameDriver)
            frameDriver = nil
            frameSampler = nil
            do { try recorder.close() } catch { if failure == nil { failure = error } }
        }
        if let failure { throw .trace(failure) }
        return FinishedRecording(path: path, sampleCount: recorder.sampleCount, refused: refused)
    }

    /// Writes one sample at `timestamp` (media clock), clamped so that time never goes backwards.
    private func write(_ kind: SampleKind, timestamp: TimeInterval) {
        guard !isFinished, failure == nil else { return }
        lastTime = max(lastTime, timestamp - start)
        do {
            try recorder.append(at: lastTime, kind)
        } catch {
            if error.kind == .io { failure = error } else if refused.count < 20 { refused.append(error) }
        }
    }
}
