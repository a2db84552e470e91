// UIKit's value types and Core Foundation's time type as the recorder uses them, for platforms
// without UIKit (Linux; macOS without Mac Catalyst). Empty where UIKit exists: there the real
// framework is imported instead (`#if canImport(UIKit) import UIKit #else import PanelSimUIKitStubs`).
//
// Transcribed from the iOS 17.0 SDK headers UIKit.framework/Headers/UIGeometry.h and UIView.h
// (UIRectEdge) and from the Swift declarations of Apple's UIKit documentation
// (developer.apple.com/documentation/uikit/uiedgeinsets, …/uirectedge). `CGFloat`, `CGPoint`,
// `CGSize` and `CGRect` are Foundation's on every platform and are not redeclared.
#if !canImport(UIKit)
    import Foundation

    #if !canImport(Darwin)
        /// Core Foundation's `CFTimeInterval` (CFDate.h): seconds, as `CACurrentMediaTime()` and
        /// `CADisplayLink.timestamp` report them. Foundation on Linux does not export it.
        public typealias CFTimeInterval = Double
    #endif

    /// `UIEdgeInsets` (UIGeometry.h): insets of a rectangle's edges, pt.
    public struct UIEdgeInsets: Equatable, Sendable {
        public var top: CGFloat
        public var left: CGFloat
        public var bottom: CGFloat
        public var right: CGFloat
        public init() { self.init(top: 0, left: 0, bottom: 0, right: 0) }
        public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
            self.top = top
            self.left = left
            self.bottom = bottom
            self.right = right
        }
        /// `UIEdgeInsetsZero`.
        public static let zero = UIEdgeInsets()
    }

    /// `UIRectEdge` (UIGeometry.h): a set of rectangle edges.
    public struct UIRectEdge: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let top = UIRectEdge(rawValue: 1 << 0)
        public static let left = UIRectEdge(rawValue: 1 << 1)
        public static let bottom = UIRectEdge(rawValue: 1 << 2)
        public static let right = UIRectEdge(rawValue: 1 << 3)
        public static let all: UIRectEdge = [.top, .left, .bottom, .right]
    }
#endif
