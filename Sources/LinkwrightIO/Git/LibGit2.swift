import CGit2

/// Process-wide libgit2 state and the glue every wrapper call goes through.
enum LibGit2 {
    /// libgit2 refuses every call until initialised. A `static let` runs its initialiser exactly
    /// once, thread-safely; the library is never shut down, the process owns it until exit.
    ///
    /// Objects are read as git reads them, without hashing each one again to compare it with its
    /// ID: neither `git show` nor `git log -p` does, a hostile repository can store any content
    /// under its true ID anyway, and damage that breaks the compression is still refused. The
    /// check cost more than reading the objects it checked (docs/performance.md).
    private static let initialization: Int32 = {
        let code = git_libgit2_init()
        guard code >= 0 else { return code }
        let verification = cgit2_set_strict_hash_verification(0)
        return verification < 0 ? verification : code
    }()

    static func initialize() throws {
        guard initialization < 0 else { return }
        throw GitError.failed(operation: "initialising libgit2", reason: lastError(code: initialization).message)
    }

    /// The error libgit2 recorded for the failing call on this thread (it keeps one per thread).
    static func lastError(code: Int32) -> Failure {
        guard let error = git_error_last() else {
            return Failure(code: code, errorClass: 0, message: "libgit2 error \(code)")
        }
        let message = error.pointee.message.map { String(cString: $0) } ?? "libgit2 error \(code)"
        return Failure(code: code, errorClass: error.pointee.klass, message: message)
    }

    /// Throws `GitError.failed` when `code` reports an error; for calls whose failures need no
    /// translation into a more specific case.
    static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws {
        guard code < 0 else { return }
        throw GitError.failed(operation: operation(), reason: lastError(code: code).message)
    }

    /// One failed libgit2 call: its return code, error class and message.
    struct Failure {
        let code: Int32
        let errorClass: Int32
        let message: String

        func `is`(_ errorCode: git_error_code) -> Bool { code == errorCode.rawValue }

        func `is`(_ errorCode: git_error_code, in errorClass: git_error_t) -> Bool {
            code == errorCode.rawValue && self.errorClass == Int32(errorClass.rawValue)
        }

        /// The object database lacks an object: in a shallow clone, the history beyond its depth.
        var isMissingObject: Bool { errorClass == Int32(GIT_ERROR_ODB.rawValue) }
    }
}

extension git_oid {
    /// The 40-character hexadecimal form.
    var hex: String {
        var oid = self
        // git_oid_tostr_s writes into a per-thread buffer: copy it out at once.
        return String(cString: git_oid_tostr_s(&oid))
    }

    /// Parses a full hexadecimal object ID, as produced by `hex`.
    init(hex: String) throws {
        self.init()
        try LibGit2.check(git_oid_fromstr(&self, hex), "reading object ID \(hex)")
    }
}
