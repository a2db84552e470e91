/// The container edge a panel is attached to (FloatingPanel `FloatingPanelPosition`).
///
/// The *main axis* is y for top/bottom panels and x for left/right panels. For bottom and right
/// panels expanding means a *decreasing* coordinate; for top and left panels an increasing one.
public enum PanelPosition: String, Sendable, Equatable, CaseIterable {
    case top, left, bottom, right

    /// True for top/bottom panels (main axis y).
    @inline(__always)
    public var isVertical: Bool { self == .top || self == .bottom }

    /// True for bottom/right panels, whose surface location decreases when the panel expands.
    public var expandsTowardLowerCoordinate: Bool { self == .bottom || self == .right }

    /// The main-axis component of a point (FloatingPanel `mainLocation`).
    @inline(__always)
    public func main(_ p: Point) -> Double { isVertical ? p.y : p.x }

    /// The main dimension of a size (FloatingPanel `mainDimension`): height or width.
    @inline(__always)
    public func mainDimension(_ s: Size) -> Double { isVertical ? s.height : s.width }

    /// The cross dimension of a size (FloatingPanel `crossDimension`).
    @inline(__always)
    public func crossDimension(_ s: Size) -> Double { isVertical ? s.width : s.height }

    /// The inset on the panel's own side (FloatingPanel `FloatingPanelPosition.inset`).
    public func ownInset(_ i: Insets) -> Double {
        switch self {
        case .top: return i.top
        case .left: return i.left
        case .bottom: return i.bottom
        case .right: return i.right
        }
    }

    /// A point whose main-axis component is `value` and whose cross component is 0.
    @inline(__always)
    public func point(main value: Double) -> Point {
        isVertical ? Point(x: 0, y: value) : Point(x: value, y: 0)
    }

    /// The edges FloatingPanel accepts for this position's inset anchors.
    public func accepts(_ edge: ReferenceEdge) -> Bool {
        isVertical ? (edge == .top || edge == .bottom) : (edge == .left || edge == .right)
    }

    /// The panel's own edge expressed as a reference edge (intrinsic anchors measure from it).
    public var ownEdge: ReferenceEdge {
        switch self {
        case .top: return .top
        case .left: return .left
        case .bottom: return .bottom
        case .right: return .right
        }
    }
}
