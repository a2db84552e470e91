// UIKit's animation timing types and colors as DrawerKit's public configuration holds them (see
// UIKitGeometry.swift for when this file is compiled). Transcribed from the iOS 17.0 SDK headers
// UIKit.framework/Headers/UITimingCurveProvider.h, UITimingParameters.h, UIView.h
// (`UIViewAnimationCurve`) and UIColor.h, as the Swift declarations of Apple's UIKit documentation
// show them. The timing classes keep what they were created with; nothing animates.
#if !canImport(UIKit)
    import Foundation

    extension UIView {
        /// `UIView.AnimationCurve` (`UIViewAnimationCurve`).
        public enum AnimationCurve: Int, Sendable {
            case easeInOut, easeIn, easeOut, linear
        }
    }

    /// `UITimingCurveType` (UITimingCurveProvider.h).
    public enum UITimingCurveType: Int, Sendable {
        case builtin, cubic, spring, composed
    }

    /// `UITimingCurveProvider` (UITimingCurveProvider.h); the NSCoding and NSCopying conformances are
    /// not transcribed.
    public protocol UITimingCurveProvider: NSObjectProtocol {
        var timingCurveType: UITimingCurveType { get }
        var cubicTimingParameters: UICubicTimingParameters? { get }
        var springTimingParameters: UISpringTimingParameters? { get }
    }

    /// `UICubicTimingParameters` (UITimingParameters.h).
    open class UICubicTimingParameters: NSObject, UITimingCurveProvider, @unchecked Sendable {
        /// `animationCurve`: the curve it was created with (`.easeInOut` for `init()`).
        public let animationCurve: UIView.AnimationCurve
        public override init() {
            animationCurve = .easeInOut
            super.init()
        }
        public init(animationCurve curve: UIView.AnimationCurve) {
            animationCurve = curve
            super.init()
        }
        open var timingCurveType: UITimingCurveType { .cubic }
        open var cubicTimingParameters: UICubicTimingParameters? { self }
        open var springTimingParameters: UISpringTimingParameters? { nil }
    }

    /// `UISpringTimingParameters` (UITimingParameters.h). UIKit exposes no damping ratio, mass or
    /// stiffness of a created spring; only `initialVelocity`.
    open class UISpringTimingParameters: NSObject, UITimingCurveProvider, @unchecked Sendable {
        /// `init()`: the system spring.
        public override init() { super.init() }
        /// `init(dampingRatio:)`.
        public init(dampingRatio ratio: CGFloat) { super.init() }
        open var timingCurveType: UITimingCurveType { .spring }
        open var cubicTimingParameters: UICubicTimingParameters? { nil }
        open var springTimingParameters: UISpringTimingParameters? { self }
    }

    /// `UIColor` (UIColor.h): only the two colors DrawerKit's handle configuration names.
    open class UIColor: NSObject, @unchecked Sendable {
        private let name: String
        init(stubName: String) {
            name = stubName
            super.init()
        }
        open class var gray: UIColor { UIColor(stubName: "gray") }
        open class var clear: UIColor { UIColor(stubName: "clear") }
        open override func isEqual(_ object: Any?) -> Bool { (object as? UIColor)?.name == name }
        open override var hash: Int { name.hashValue }
    }
#endif
