import AlarmBridge
import Campaign
import Reporting
import SimKernel
import Simulation

/// `alarmsim --version`: the tool, the trace format it writes and the zone data it runs on —
/// the three things a repro depends on besides the seed (a run is a pure function of its seed,
/// defects and the zone data).
enum VersionInfo {
    /// The tool's version (semantic versioning).
    static let version = "0.9.0"

    static var text: String {
        "alarmsim \(version) (trace format \(TraceHeader.formatName), time-zone data \(WallCalendar.zoneDataVersion))\n"
    }
}

/// `alarmsim --generate-completion-script bash|zsh|fish`: a completion script built from the
/// subcommands and the options their help lists, like swift-argument-parser's.
enum CompletionScript {
    static let shells = ["bash", "zsh", "fish"]

    /// The option names (`--seeds`, …) that `command`'s help lists, in help order, `--help` once.
    static func optionNames(_ command: any Command.Type) -> [String] {
        var names: [String] = []
        for line in command.options {
            let words = line.split(separator: " ").map(String.init)
            for word in words.prefix(2) {
                let name = String(word.prefix { $0 != "," && $0 != "=" })
                if name.hasPrefix("--"), name.count > 2, !names.contains(name) { names.append(name) }
            }
        }
        if !names.contains("--help") { names.append("--help") }
        return names
    }

    /// The words an option's value can be, for options whose values are a closed set (platforms,
    /// profiles, defect, fault and exemption names); nil for free values (paths, seeds, numbers).
    static func values(for option: String) -> [String]? {
        switch option {
        case "--platform": return ["ios", "android", "both"]
        case "--profile", "--profiles": return FaultProfile.allCases.map { $0.rawValue }
        case "--defect", "--vs-defect": return KnownDefect.listed.map { $0.rawValue }
        case "--faults": return FaultCatalog.all.map { $0.name }
        case "--exemption": return ExemptionScoreboard.exemptionFaults().map { $0.exemption }
        default: return nil
        }
    }

    /// The words `list` takes as its one argument.
    static let listSubjects = ListCommand.Subject.allCases.map { $0.rawValue }

    /// Every option with a closed set of values, once, in a fixed order.
    static var valuedOptions: [String] {
        ["--platform", "--profile", "--profiles", "--defect", "--vs-defect", "--faults", "--exemption"]
    }

    /// The script for `shell`, or nil when the shell is not one of ``shells``.
    static func script(for shell: String, commands: [any Command.Type]) -> String? {
        switch shell {
        case "bash": return bash(commands)
        case "zsh": return zsh(commands)
        case "fish": return fish(commands)
        default: return nil
        }
    }

    static func bash(_ commands: [any Command.Type]) -> String {
        var lines = [
            "# bash completion for alarmsim: source it, or put it in /etc/bash_completion.d/alarmsim",
            "_alarmsim() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\"",
            "    if [ \"$COMP_CWORD\" -eq 1 ]; then",
            "        COMPREPLY=($(compgen -W \"\(commands.map { $0.name }.joined(separator: " ")) help --help --version\" -- \"$cur\"))",
            "        return",
            "    fi",
            "    local prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
            "    case \"$prev\" in",
        ]
        for option in valuedOptions {
            lines.append("        \(option)) COMPREPLY=($(compgen -W \"\(values(for: option)!.joined(separator: " "))\" -- \"$cur\")); return ;;")
        }
        lines += [
            "    esac",
            "    if [ \"${COMP_WORDS[1]}\" = list ] && [ \"$COMP_CWORD\" -eq 2 ]; then",
            "        COMPREPLY=($(compgen -W \"\(listSubjects.joined(separator: " "))\" -- \"$cur\")); return",
            "    fi",
            "    case \"${COMP_WORDS[1]}\" in",
        ]
        for command in commands {
            lines.append("        \(command.name)) COMPREPLY=($(compgen -W \"\((optionNames(command)).joined(separator: " "))\" -- \"$cur\")) ;;")
        }
        lines += ["    esac", "    if [ ${#COMPREPLY[@]} -eq 0 ]; then COMPREPLY=($(compgen -f -- \"$cur\")); fi", "}",
                  "complete -F _alarmsim alarmsim", ""]
        return lines.joined(separator: "\n")
    }

    static func zsh(_ commands: [any Command.Type]) -> String {
        var lines = ["#compdef alarmsim", "# zsh completion for alarmsim: put it on $fpath as _alarmsim", "_alarmsim() {",
                     "    if (( CURRENT == 2 )); then", "        local -a subcommands", "        subcommands=("]
        for command in commands {
            lines.append("            '\(command.name):\(command.abstract.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: ":", with: "\\:"))'")
        }
        lines += ["        )", "        _describe 'subcommand' subcommands", "        return", "    fi", "    case $words[2] in"]
        for command in commands {
            let positional = command.name == "list" ? "'1:what:(\(listSubjects.joined(separator: " ")))'" : "'*:file:_files'"
            let options = optionNames(command).map { option in
                values(for: option).map { "'\(option)[]:value:(\($0.joined(separator: " ")))'" } ?? "'\(option)[]'"
            }
            lines.append("        \(command.name)) _arguments \(positional) \(options.joined(separator: " ")) ;;")
        }
        lines += ["    esac", "}", "_alarmsim \"$@\"", ""]
        return lines.joined(separator: "\n")
    }

    static func fish(_ commands: [any Command.Type]) -> String {
        let names = commands.map { $0.name }.joined(separator: " ")
        var lines = ["# fish completion for alarmsim: put it in ~/.config/fish/completions/alarmsim.fish",
                     "complete -c alarmsim -n 'not __fish_seen_subcommand_from \(names)' -l version -d 'print the version'"]
        for command in commands {
            let abstract = command.abstract.replacingOccurrences(of: "'", with: "\\'")
            lines.append("complete -c alarmsim -f -n 'not __fish_seen_subcommand_from \(names)' -a \(command.name) -d '\(abstract)'")
            for option in optionNames(command) {
                let choices = values(for: option).map { " -x -a '\($0.joined(separator: " "))'" } ?? ""
                lines.append("complete -c alarmsim -n '__fish_seen_subcommand_from \(command.name)' -l \(option.dropFirst(2))\(choices)")
            }
            if command.name == "list" {
                lines.append("complete -c alarmsim -f -n '__fish_seen_subcommand_from list' -a '\(listSubjects.joined(separator: " "))'")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
