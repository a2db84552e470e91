/// Plain geometry in the container's coordinate space: points (pt), origin top-left,
/// x grows to the right, y grows downward (UIKit's convention).

/// A point in points (pt).
public struct Point: Sendable, Equatable, Hashable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
    public static let zero = Point(x: 0, y: 0)
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
}

/// A size in points (pt).
public struct Size: Sendable, Equatable, Hashable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// Edge insets in points (pt), UIKit's `UIEdgeInsets`.
public struct Insets: Sendable, Equatable, Hashable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
    public static let zero = Insets(top: 0, left: 0, bottom: 0, right: 0)
}

/// A rectangle in points (pt): origin plus size.
public struct Rect: Sendable, Equatable, Hashable {
    public var origin: Point
    public var size: Size
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        size = Size(width: width, height: height)
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
/// - Complexity: O(1) and no library call on x86-64 (see `PixelRounding`): it runs several times
///   per simulated frame.
@inline(__always)
public func roundedByDisplayScale(_ value: Double, scale: Double) -> Double {
    if let pixels = PixelRounding.nearestPixelCount(value, scale: scale) { return pixels / scale }
    let truncated = PixelRounding.towardZero(value * 1e9) / 1e9
    return PixelRounding.halfAwayFromZero(truncated * scale) / scale
}

/// The mirror image of `roundedByDisplayScale` on non-negative coordinates: where that function
/// truncates toward zero (down) at 1e-9 pt and rounds a half pixel away from zero (up), this one
/// rounds up at 1e-9 pt and a half pixel down, so that f(H − u) = H − roundedByDisplayScale(u)
/// for u ≥ 0 when H is a whole number of pixels. Not FloatingPanel: only for
/// `SimulationOptions.mirrorImageArithmetic`.
/// - Complexity: O(1); it calls the standard library's `rounded(.up)` (exact on every platform).
public func mirroredRoundedByDisplayScale(_ value: Double, scale: Double) -> Double {
    let x = ((value * 1e9).rounded(.up) / 1e9) * scale
    let up = x.rounded(.up)
    return (up - x >= 0.5 ? up - 1 : up) / scale
}

/// `Double.rounded(.towardZero)` and `.rounded(.toNearestOrAwayFromZero)`, bit for bit (the sign
/// of a zero result included), in plain arithmetic on x86-64.
///
/// Why: Swift's x86-64 baseline has no SSE4.1 `roundsd`, so `rounded` is a call into libm's
/// `trunc` / `round` through the PLT, and the display-scale rounding runs several times per
/// simulated frame (BENCHMARKS.md). Other architectures (arm64: `frintz` / `frinta`) keep the
/// standard library's single instruction.
///
/// Method: for a = |x| < 2^52, (a + 2^52) − 2^52 is a rounded to the nearest integer, ties to
/// even (the sum's ulp is 1; IEEE default rounding, which Swift never changes). Its difference r − a
/// is exact (Sterbenz for a ≥ 1; r ∈ {0, 1} below), so "r > a" and "r − a = −½" detect the cases
/// that truncation and half-away-from-zero round differently. The sign is put back last, so −0.3
/// gives −0 as libm does. Every |x| ≥ 2^52, ±∞ and NaN is returned unchanged (such doubles are
/// already integers). Checked against `rounded` in `PixelRoundingTests`.
public enum PixelRounding {
    /// The integer nearest to a, ties to even, for 0 ≤ a < 2^52 (the sum's ulp is 1).
    @inline(__always)
    static func nearestEven(_ a: Double) -> Double { (a + 0x1p52) - 0x1p52 }

    /// trunc(x): toward zero.
    @inline(__always)
    public static func towardZero(_ x: Double) -> Double {
        #if arch(x86_64)
            let a = x.magnitude
            guard a < 0x1p52 else { return x }
            let r = nearestEven(a)
            return Double(signOf: x, magnitudeOf: r > a ? r - 1 : r)
        #else
            return x.rounded(.towardZero)
        #endif
    }

    /// The signed pixel count k that `roundedByDisplayScale(value, scale:)` divides by `scale`,
    /// found without its first truncation and division when that cannot change the result; nil
    /// when it might (then the caller takes the exact path).
    ///
    /// The exact path computes k = round(y′) with y′ = fl(fl(trunc(fl(v·10⁹))/10⁹)·s). For
    /// 0.5 ≤ s ≤ 64 and |v·s| < 2^24, y′ differs from y = fl(v·s) by less than
    /// |v·s|·2^-51 + s·10⁻⁹·(1 + 2^-52) < 7.2·10⁻⁸ (three roundings of relative error 2^-53 each,
    /// plus the truncation, which moves v·10⁹ by less than 1 toward zero). So when y is more than
    /// 10⁻⁶ from the nearest half-integer, y and y′ round to the same integer, and to the same sign
    /// (v's: truncation keeps the sign of a zero). Why: this is the longest dependency chain of a
    /// simulated frame, and the truncation with its division is about half of it.
    /// Checked against the exact formula in `DisplayScaleRoundingTests`.
    @inline(__always)
    public static func nearestPixelCount(_ value: Double, scale: Double) -> Double? {
        guard scale >= 0.5, scale <= 64 else { return nil }
        let a = (value * scale).magnitude
        guard a < 0x1p24 else { return nil }
        let r = nearestEven(a)  // ties are excluded below
        guard (a - r).magnitude < 0.499999 else { return nil }
        return Double(signOf: value, magnitudeOf: r)
    }

    /// round(x): to nearest, halfway cases away from zero.
    @inline(__always)
    public static func halfAwayFromZero(_ x: Double) -> Double {
        #if arch(x86_64)
            let a = x.magnitude
            guard a < 0x1p52 else { return x }
            let r = nearestEven(a)
            return Double(signOf: x, magnitudeOf: r - a == -0.5 ? r + 1 : r)
        #else
            return x.rounded(.toNearestOrAwayFromZero)
        #endif
    }
}
