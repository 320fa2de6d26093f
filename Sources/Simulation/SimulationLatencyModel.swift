/// The time from opening a menu to picking a command, before noise (each pick is multiplied by a
/// log-normal factor, sigma 0.35): `baseMillis + perItemMillis * position`, plus `submenuMillis`
/// for a command in a submenu (opening it). Time grows linearly with the items scanned, as in the
/// serial visual search of novices (Cockburn, Gutwin & Greenberg 2007), which is what makes an
/// accepted layout that puts the used commands first measurably faster. A dismissal of a menu
/// that lacks the wanted command costs a scan of every item.
public struct SimulationLatencyModel: Sendable, Equatable {
    public var baseMillis: Double = 380
    public var perItemMillis: Double = 210
    public var submenuMillis: Double = 450

    public init() {}
}
