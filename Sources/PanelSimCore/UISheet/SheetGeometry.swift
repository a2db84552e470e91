/// Detent geometry of the phone sheet (uisheet.md §3.1, U1–U3, U9, U25, U32): offsets are the y of
/// the sheet's top edge in container coordinates (pt, y down; smaller = more expanded).

/// One active detent, resolved: its identifier, resolver value v (pt above the bottom safe area)
/// and offset P = round(H − safeBottom − v) on the display's pixel grid.
struct ResolvedDetent: Sendable, Equatable {
    var identifier: String
    var value: Double
    var offset: Double
}

struct SheetGeometry: Sendable, Equatable {
    /// Container height H, safe-area top and bottom, display scale (px per pt).
    let height: Double, safeTop: Double, safeBottom: Double, scale: Double
    /// The large detent's offset y_L = round(top margin) (§3.1 item 1, U2, U32).
    let largeTop: Double
    /// Full-height sheet height F = H − y_L and `maximumDetentValue` M = F − safeBottom.
    let fullHeight: Double, maximumDetentValue: Double
    /// The active detents sorted top to bottom (index 0 = the largest detent).
    let detents: [ResolvedDetent]
    /// Lower rubber-band extent E_down = clamp(0.25 F, 0, 200) (U9).
    let extentDown: Double
    /// True when the list was not ordered smallest to largest (a warning, §2.1).
    let wasUnordered: Bool
    /// U25: compact height, H < 500 pt (a landscape phone): medium is inactive (§3.11).
    let compactHeight: Bool
    /// U25: compact height without edge attachment: the full-screen sheet.
    let fullScreen: Bool
    let variant: SheetSimulatorOptions.Variant

    init(_ detentList: [SheetDetent], environment e: PanelEnvironment, configuration c: SheetConfiguration) {
        let o = c.simulator
        height = e.container.height
        safeTop = e.safeArea.top
        safeBottom = e.safeArea.bottom
        scale = e.displayScale
        variant = o.variant
        let compact = height < 500
        compactHeight = compact
        fullScreen = compact && !c.prefersEdgeAttachedInCompactHeight
        let margin: Double
        if fullScreen {
            margin = 0
        } else if o.variant == .ios26 {
            margin = safeTop
        } else {
            margin = safeTop + (o.topMargin ?? (safeBottom > 0 ? 10 : 20))
        }
        let yL = roundedByDisplayScale(margin, scale: scale)
        largeTop = yL
        fullHeight = height - yL
        let m = fullHeight - (fullScreen ? 0 : safeBottom)
        maximumDetentValue = m
        var list: [(ResolvedDetent, Int)] = []
        for (i, d) in detentList.enumerated() where !d.inactive {
            var v: Double
            switch d.kind {
            case .large: v = m
            case .medium:
                if compact { continue }
                switch o.mediumValue {
                case .uikit: v = (height > 568 ? 0.56 : 0.63) * m
                case .halfHeight: v = height / 2
                case .halfMaximum: v = 0.5 * m
                }
            case .height(let h): v = h
            case .fraction(let f): v = f * m
            }
            v = min(max(v, 0), m)
            let offset = fullScreen ? 0 : roundedByDisplayScale(height - safeBottom - v, scale: scale)
            list.append((ResolvedDetent(identifier: d.identifier, value: v, offset: offset), i))
        }
        // U25: full screen keeps only the largest detent. The full-screen sheet does not depend on
        // its detents (§3.11: location 0, no detents other than full), so a list whose only
        // active entry was medium (inactive in compact height) still shows it full screen, under
        // medium's identifier.
        if fullScreen, list.isEmpty, let i = detentList.firstIndex(where: { $0.kind == .medium && !$0.inactive }) {
            list = [(ResolvedDetent(identifier: detentList[i].identifier, value: m, offset: 0), i)]
        }
        // The full-screen sheet is full height whatever its detent resolved to: its value is M (the
        // keyboard's lift of §3.10 reads it).
        if fullScreen, var top = list.max(by: { ($0.0.value, $0.1) < ($1.0.value, $1.1) }) {
            top.0.value = m
            list = [top]
        }
        var unordered = false
        for k in list.indices.dropFirst() where list[k].0.offset > list[k - 1].0.offset { unordered = true }
        wasUnordered = unordered
        // Top to bottom; equal offsets: the later-listed first.
        detents = list.sorted { $0.0.offset != $1.0.offset ? $0.0.offset < $1.0.offset : $0.1 > $1.1 }.map(\.0)
        extentDown = min(max(0.25 * fullHeight, 0), 200)
    }

    /// Rounds an offset to the display's pixel grid (U3).
    func round(_ y: Double) -> Double { roundedByDisplayScale(y, scale: scale) }

    /// The upper rubber-band extent above the top-most candidate `p0` (U9, U32).
    func extentUp(above p0: Double) -> Double {
        variant == .ios26 ? 200 : min(max(p0 - safeTop, 0), 100)
    }

    /// The index of the detent `identifier` among the active detents, nil when it names none.
    func index(of identifier: String?) -> Int? {
        guard let identifier else { return nil }
        return detents.firstIndex { $0.identifier == identifier }
    }

    /// The rubber band of §3.3 item 5: band(x, E) = E·(1 − 1/(c·x/E + 1)), c = 0.55 (physics.md §2).
    static func band(_ x: Double, _ e: Double) -> Double {
        guard e > 0, x > 0 else { return 0 }
        return e * (1 - 1 / (0.55 * x / e + 1))
    }

    /// The inverse of `band`: the excess x that shows y (∞ at y ≥ E).
    static func unband(_ y: Double, _ e: Double) -> Double {
        guard e > 0, y > 0 else { return 0 }
        return y >= e ? Double.greatestFiniteMagnitude : y * e / (0.55 * (e - y))
    }
}

extension SheetConfiguration {
    /// The active detents' offsets, top to bottom, as (identifier, offset) (charts, reports, tests).
    public func detentOffsets(environment: PanelEnvironment) -> [(String, Double)] {
        SheetGeometry(detents, environment: environment, configuration: self).detents.map { ($0.identifier, $0.offset) }
    }

    /// The sheet's resolved layout in `environment` for code outside the model (the soak's checker):
    /// uisheet.md §3.1 with this configuration's options.
    public func layout(environment: PanelEnvironment) -> SheetLayout {
        let g = SheetGeometry(detents, environment: environment, configuration: self)
        return SheetLayout(
            largeTop: g.largeTop, fullHeight: g.fullHeight, extentDown: g.extentDown, displayScale: g.scale,
            detents: g.detents.map { SheetLayout.Detent(identifier: $0.identifier, value: $0.value, offset: $0.offset) }
        )
    }
}

/// A sheet's resolved layout (uisheet.md §3.1), offsets in container y (pt, y down).
public struct SheetLayout: Sendable, Equatable {
    /// One active detent: its identifier, resolver value v (pt above the bottom safe area) and
    /// offset P = round(H − safeBottom − v).
    public struct Detent: Sendable, Equatable {
        public var identifier: String
        public var value: Double
        public var offset: Double
    }
    /// The large detent's offset y_L (§3.1 item 1).
    public var largeTop: Double
    /// The full-height sheet height F = H − y_L.
    public var fullHeight: Double
    /// The lower rubber-band extent E_down = clamp(0.25 F, 0, 200) (U9).
    public var extentDown: Double
    /// The display scale whose pixel grid offsets are rounded to (U3).
    public var displayScale: Double
    /// The active detents, top to bottom (index 0 = the largest detent).
    public var detents: [Detent]
}
