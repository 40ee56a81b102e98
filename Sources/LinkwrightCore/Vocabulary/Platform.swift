/// The platforms an app ships on. The raw value is how configuration files, reports and the
/// command line spell it; everywhere else the case is passed.
public enum Platform: String, Sendable, CaseIterable {
    case ios
    case android
}
