/// Per-folder tolerances: `panelsim.tolerances` files from the trace root down to a trace's
/// folder (nearer files win per channel), then the command-line settings. Shared by `check` and
/// `assertPanelTrace`; package access (not API).
package struct ToleranceResolver {
    /// The folder whose `panelsim.tolerances` applies first (the trace folder of `check`).
    package var root: String
    /// `root` as shown in error messages.
    package var shownRoot: String
    /// Settings applied after every file (`--tolerance`, or `assertPanelTrace`'s `tolerances:`).
    package var settings: [(ToleranceChannel, Tolerance)]

    package init(root: String, shownRoot: String, settings: [(ToleranceChannel, Tolerance)]) {
        self.root = root
        self.shownRoot = shownRoot
        self.settings = settings
    }

    /// Tolerances (or the error of a malformed file) for each relative trace path's folder.
    /// - Complexity: O(traces · depth) plus one read per tolerance file.
    package func resolve(for traces: [String]) -> [String: Result<Tolerances, ToleranceSettingError>] {
        var byFolder: [String: Result<Tolerances, ToleranceSettingError>] = [:]
        var fileCache: [String: Result<[(ToleranceChannel, Tolerance)], ToleranceSettingError>] = [:]
        for rel in traces {
            let folder = rel.split(separator: "/").dropLast().joined(separator: "/")
            if byFolder[folder] != nil { continue }
            var folders = [""]
            var acc = ""
            for part in folder.split(separator: "/") {
                acc = acc.isEmpty ? String(part) : acc + "/" + part
                folders.append(acc)
            }
            var merged: [(ToleranceChannel, Tolerance)] = []
            var failure: ToleranceSettingError?
            for f in folders where failure == nil {
                let relFile = f.isEmpty ? ToleranceSettings.fileName : f + "/" + ToleranceSettings.fileName
                if fileCache[relFile] == nil {
                    let path = root + "/" + relFile
                    if !Files.isFile(path) {
                        fileCache[relFile] = .success([])
                    } else {
                        switch Files.read(path, shown: Files.join(shownRoot, relFile)) {
                        case .failure(let e): fileCache[relFile] = .failure(ToleranceSettingError(message: e.message))
                        case .success(let text):
                            do {
                                fileCache[relFile] = .success(
                                    try ToleranceSettings.parseFile(text, file: Files.join(shownRoot, relFile)))
                            } catch {
                                fileCache[relFile] = .failure(error)
                            }
                        }
                    }
                }
                switch fileCache[relFile]! {
                case .success(let s): merged += s
                case .failure(let e): failure = e
                }
            }
            byFolder[folder] = failure.map { .failure($0) } ?? .success(Tolerances.default.applying(merged + settings))
        }
        return byFolder
    }
}
