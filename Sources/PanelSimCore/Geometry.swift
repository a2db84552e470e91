/// Plain geometry in the container's coordinate space: points (pt), origin top-left,
/// x grows to the right, y grows downward (UIKit's convention).

/// A point in points (pt).
public struct Point: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
}

/// A size in points (pt).
public struct Size: Sendable, Equatable, Hashable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}

/// Edge insets in points (pt), UIKit's `UIEdgeInsets`.
public struct Insets: Sendable, Equatable, Hashable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public static let zero = Insets(top: 0, left: 0, bottom: 0, right: 0)
}

/// A rectangle in points (pt): origin plus size.
public struct Rect: Sendable, Equatable, Hashable {
    public var origin: Point
    public var size: Size
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y); size = Size(width: width, height: height)
    }
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    /// UIKit's `CGRect.contains`: min-inclusive, max-exclusive on both axes.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }
}

/// FloatingPanel's `CGFloat.rounded(by:)`: snap a value to the display's pixel grid.
///
/// Step 1 truncates toward zero at 1e-9 pt (removes float noise), step 2 rounds half away from
/// zero at `scale` pixels per point. Examples at scale 3: 333.5 → 333.666…, ±0.16666666666674246 → 0.
/// Source: FloatingPanel `Extensions.swift` (`rounded(by:)`), floatingpanel-core.md §0.2.
/// - Parameters:
///   - value: a coordinate in pt.
///   - scale: the display scale in pixels per pt (> 0).
public func roundedByDisplayScale(_ value: Double, scale: Double) -> Double {
    let truncated = (value * 1e9).rounded(.towardZero) / 1e9
    return (truncated * scale).rounded(.toNearestOrAwayFromZero) / scale
}
