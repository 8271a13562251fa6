@testable import AlarmSimCLI
import Testing

/// Output paths are split by plain text: `NSString.deletingLastPathComponent` trapped on a
/// one-character path on Linux, so `--out x` crashed shrink, defects and exemptions.
@Suite("the directory part of an output path")
struct PathTextTests {
    @Test("each path's directory part", arguments: [
        ("x", ""), ("é", ""), (".", ""), ("-", ""), ("xy", ""), ("./x", "."), ("d/x", "d"), ("a/b/c.md", "a/b"),
        ("/x", "/"), ("/", "/"), ("a//b", "a/"), ("d/x/", "d"),
    ])
    func directoryPart(path: String, directory: String) {
        #expect(ShrinkCommand.directoryPart(of: path) == directory)
    }

    @Test("a name without a directory needs no directory created; stdout needs none")
    func parents() {
        #expect(ShrinkCommand.parentDirectories(of: "x").isEmpty)
        #expect(ShrinkCommand.parentDirectories(of: "-").isEmpty)
        #expect(ShrinkCommand.parentDirectories(of: "out/x.scenario") == ["out"])
    }

    @Test("defects' shrunk scenarios default to 'defects' beside --out", arguments: [
        ("Reports/latest/defects.md", "Reports/latest/defects"), ("/tmp/d.md", "/tmp/defects"), ("d.md", "defects"),
        ("/d.md", "/defects"), ("-", "Reports/latest/defects"),
    ])
    func defectsShrinkDirectory(out: String, directory: String) {
        #expect(DefectsCommand.shrinkDirectory(besides: out) == directory)
    }
}
