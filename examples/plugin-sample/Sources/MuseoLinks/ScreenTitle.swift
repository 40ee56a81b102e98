import Foundation

/// What the app shows for a link: the generated `MuseoRouter` decides where it leads, as the
/// association files decide whether it opens the app.
public func screenTitle(for url: URL) -> String? {
    switch MuseoRouter.destination(for: url) {
    case .exhibition(let slug)?: slug.map { "Exhibition \($0)" } ?? "Exhibitions"
    case .ticket(let id, let source)?: "Ticket \(id ?? "") from \(source)"
    case .collection(let lang, let section, let artwork)?: "\(section) (\(lang)) \(artwork ?? "")"
    case nil: nil
    }
}
