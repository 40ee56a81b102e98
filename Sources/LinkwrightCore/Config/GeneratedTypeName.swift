/// The Swift or Kotlin type name the generated routers make of a name from configuration (an
/// app's logical name; a domain's and its environments' for a rule list): `museo-clip` →
/// `MuseoClip`. Declared with the configuration, whose check keeps two apps from making the
/// same one (`GENERATED_NAME_CLASH`), below the routers that use it.
public enum GeneratedTypeName {
    public static func of(_ name: String) -> String {
        let words = name.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        let joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return joined.first?.isLetter == true ? joined : "App" + joined
    }
}
