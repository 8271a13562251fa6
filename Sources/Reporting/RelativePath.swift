import Foundation

/// Relative links between report files, computed lexically (no file system access beyond the
/// current directory's name), so a report's links are a pure function of the paths it was given.
public enum RelativePath {
    /// The path of `target` as seen from `directory`: `shrunk/ios-1-x.scenario` from the report
    /// directory, `../../shrunk/ios-1-x.scenario` from `failures/ios-1/`. Both are made absolute
    /// against `currentDirectory` and `.`/`..` resolved lexically first.
    public static func from(_ directory: String, to target: String,
                            currentDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        let base = components(directory, currentDirectory: currentDirectory)
        let goal = components(target, currentDirectory: currentDirectory)
        var common = 0
        while common < base.count, common < goal.count, base[common] == goal[common] { common += 1 }
        let ups = Array(repeating: "..", count: base.count - common)
        let path = (ups + goal[common...]).joined(separator: "/")
        return path.isEmpty ? "." : path
    }

    /// The absolute components of `path`, `.` and `..` resolved lexically.
    static func components(_ path: String, currentDirectory: String) -> [String] {
        let start = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        var parts: [String] = []
        for part in start.split(separator: "/") where part != "." && !part.isEmpty {
            if part == ".." { _ = parts.popLast() } else { parts.append(String(part)) }
        }
        return parts
    }
}
