//! The top-level help as a map of the commands, `--color`, shell completions and man pages.

use crate::support::{Ws, clean_env, json_of};
use std::process::Command as StdCommand;

/// The headings of `aw --help`, in the order they must appear.
const HEADINGS: &[&str] = &[
    "Workspace and sources",
    "Sessions and checkpoints",
    "Documents and the board",
    "Flows",
    "Capabilities and designs",
    "Agent hosts and the shell",
    "Family manifests",
    "Hook targets (commands a host calls, not a person)",
    "Development",
];

/// The command lists of a help page, as (heading, [(name, summary)]): the "Commands:" section
/// of a group's help, or the headings of the top-level map, below "Usage:" (the prose above it
/// may have headings of its own). A summary's wrapped lines are joined; the option sections
/// are not command lists.
pub fn command_sections(help: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut sections: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut open = false;
    for line in help.lines().skip_while(|l| !l.starts_with("Usage:")) {
        if line.trim().is_empty() {
            open = false;
        } else if !line.starts_with(' ') {
            let heading = line.strip_suffix(':').filter(|h| {
                !h.contains(':') && !["Options", "Global options", "Arguments"].contains(h)
            });
            open = heading.is_some();
            if let Some(h) = heading {
                sections.push((h.to_owned(), Vec::new()));
            }
        } else if open {
            let entries = &mut sections.last_mut().unwrap().1;
            if line.starts_with("  ") && !line.starts_with("    ") {
                let mut it = line.trim().splitn(2, ' ');
                let name = it.next().unwrap_or_default().to_owned();
                let rest = it.next().unwrap_or_default().trim().to_owned();
                entries.push((name, rest));
            } else if let Some(last) = entries.last_mut() {
                last.1 = format!("{} {}", last.1, line.trim()).trim().to_owned();
            }
        }
    }
    for (_, entries) in &mut sections {
        entries.retain(|(n, _)| n != "help");
    }
    sections
}

/// Every command aw has, from the refusal of one it has not (sorted).
fn every_command(ws: &Ws) -> Vec<String> {
    let v = ws.failure(&["frobnicate"]);
    v["error"]["details"]["available_commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect()
}

/// `aw args…` run directly, not through the recorded wire (`support/wire.rs`): scripts and man
/// pages are made from the help text, which changes with any command's prose. (exit code,
/// stdout)
fn direct(ws: &Ws, args: &[&str]) -> (i32, String) {
    let out = ws.aw().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

fn help(ws: &Ws, args: &[&str]) -> String {
    let out = ws
        .aw()
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_top_level_help_is_a_map_of_every_command_once() {
    let ws = Ws::bare();
    let commands = every_command(&ws);
    assert!(commands.len() > 35, "{commands:?}");
    // `aw`, `aw -h` and `aw --help` show the same map.
    for args in [&[][..], &["-h"], &["--help"]] {
        let text = help(&ws, args);
        let sections = command_sections(&text);
        let headings: Vec<&str> = sections.iter().map(|(h, _)| h.as_str()).collect();
        assert_eq!(headings, HEADINGS, "{args:?}:\n{text}");
        let mut listed: Vec<&str> = sections
            .iter()
            .flat_map(|(_, e)| e.iter().map(|(n, _)| n.as_str()))
            .collect();
        listed.sort_unstable();
        let twice: Vec<&&str> = listed
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| &w[0])
            .collect();
        assert!(twice.is_empty(), "listed twice: {twice:?}");
        let missing: Vec<&String> = commands
            .iter()
            .filter(|c| !listed.contains(&c.as_str()))
            .collect();
        assert!(missing.is_empty(), "under no heading: {missing:?}");
        assert_eq!(listed.len(), commands.len(), "{listed:?}");
        // Each command is listed with its summary.
        for (_, entries) in &sections {
            for (name, summary) in entries {
                assert!(!summary.is_empty(), "`{name}` has no summary");
            }
        }
        assert!(text.contains("\nGlobal options:\n"), "{text}");
        assert!(!text.contains("\nCommands:\n"), "{text}");
    }
    let development = &command_sections(&help(&ws, &["--help"]))[HEADINGS.len() - 1].1;
    let names: Vec<&str> = development.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["context-budget", "demo"]);
}

/// `aw args…` with stdout piped, the colour variables as given: (stdout, whether it holds an
/// escape sequence).
fn coloured(ws: &Ws, args: &[&str], env: &[(&str, &str)]) -> (String, bool) {
    let mut c = ws.aw();
    c.args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env("TERM", "xterm");
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let escaped = text.contains('\u{1b}');
    (text, escaped)
}

#[test]
fn the_color_flag_wins_over_the_variables() {
    let ws = Ws::new();
    ws.create_session("quick", "paint-quick", "Paint the list");
    fn with(flag: Option<&'static str>) -> Vec<&'static str> {
        let mut args = vec!["sessions", "--format", "human"];
        if let Some(f) = flag {
            args.extend(["--color", f]);
        }
        args
    }
    // Piped, no flag: no colour; CLICOLOR_FORCE forces it; NO_COLOR wins over CLICOLOR_FORCE.
    assert!(!coloured(&ws, &with(None), &[]).1);
    assert!(coloured(&ws, &with(None), &[("CLICOLOR_FORCE", "1")]).1);
    assert!(
        !coloured(
            &ws,
            &with(None),
            &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]
        )
        .1
    );
    // `always` wins over NO_COLOR, TERM=dumb and a pipe.
    let (text, on) = coloured(
        &ws,
        &with(Some("always")),
        &[("NO_COLOR", "1"), ("TERM", "dumb")],
    );
    assert!(on, "{text}");
    // `never` wins over CLICOLOR_FORCE.
    assert!(!coloured(&ws, &with(Some("never")), &[("CLICOLOR_FORCE", "1")]).1);
    // `auto` is the variables' rule; the flag goes anywhere on the line, `=` or not.
    assert!(coloured(&ws, &with(Some("auto")), &[("CLICOLOR_FORCE", "1")]).1);
    assert!(
        coloured(
            &ws,
            &["--color=always", "sessions", "--format", "human"],
            &[]
        )
        .1
    );
    // Help and failures follow it too.
    assert!(coloured(&ws, &["--color", "always", "--help"], &[("NO_COLOR", "1")]).1);
    assert!(!coloured(&ws, &["--help"], &[]).1);
    assert!(
        !coloured(
            &ws,
            &["--color", "never", "--help"],
            &[("CLICOLOR_FORCE", "1")]
        )
        .1
    );
    let refused = [
        "--color", "always", "sessions", "--bogus", "--format", "human",
    ];
    assert!(coloured(&ws, &refused, &[("NO_COLOR", "1")]).1);
    // JSON is never coloured.
    let (json, on) = coloured(&ws, &["sessions", "--json", "--color", "always"], &[]);
    assert!(!on, "{json}");
    // A value that is not a choice is refused with the choices.
    let v = ws.failure(&["sessions", "--color", "sometimes"]);
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("always"),
        "{v}"
    );
}

/// A bash running `script` with aw's folder first on PATH: (exit code, stdout).
fn bash(ws: &Ws, script: &str) -> (i32, String) {
    let bin = crate::support::bin();
    let dir = bin.parent().unwrap();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut c = StdCommand::new("bash");
    clean_env(&mut c, ws.home());
    let out = c
        .args(["--norc", "--noprofile", "-c", script])
        .env("PATH", path)
        .current_dir(ws.root())
        .output()
        .unwrap();
    assert!(
        out.stderr.is_empty(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
    )
}

/// The words bash's completion function offers for the command line `words` (the last one is
/// the word being completed).
fn completes(ws: &Ws, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cword = words.len() - 1;
    let script = format!(
        "source <(aw completions bash) || exit 3\n\
         COMP_WORDS=({words}); COMP_CWORD={cword}; COMP_LINE=\"${{COMP_WORDS[*]}}\"; \
         COMP_POINT=${{#COMP_LINE}}\n\
         _aw aw \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        words = quoted.join(" "),
    );
    let (code, out) = bash(ws, &script);
    assert_eq!(code, 0, "{words:?}: {out}");
    out.lines().map(str::to_owned).collect()
}

#[test]
fn bash_completion_loads_and_completes_commands_verbs_and_flags() {
    let ws = Ws::bare();
    // The script registers a completion for aw.
    let (code, out) = bash(&ws, "source <(aw completions bash) && complete -p aw");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("_aw") && out.trim_end().ends_with(" aw"),
        "{out}"
    );
    // A command from its first letters, a verb of a group, a flag, a flag's values.
    assert_eq!(
        completes(&ws, &["aw", "sess"]),
        [
            "session-artifacts",
            "session-close",
            "session-create",
            "session-resume",
            "sessions",
        ]
    );
    assert_eq!(completes(&ws, &["aw", "flow", "adv"]), ["advance"]);
    assert_eq!(completes(&ws, &["aw", "sessions", "--sta"]), ["--state"]);
    assert_eq!(
        completes(&ws, &["aw", "sessions", "--format", ""]),
        ["human", "json"]
    );
    assert_eq!(
        completes(&ws, &["aw", "flow", "advance", "--color", "a"]),
        ["auto", "always"]
    );
    assert_eq!(completes(&ws, &["aw", "--col"]), ["--color"]);
    assert_eq!(completes(&ws, &["aw", "completions", "z"]), ["zsh"]);
    // Every command is offered.
    let every = every_command(&ws);
    let offered = completes(&ws, &["aw", ""]);
    for c in &every {
        assert!(offered.contains(c), "`{c}` is not offered: {offered:?}");
    }
}

#[test]
fn every_shell_has_a_script_for_aw() {
    let ws = Ws::bare();
    for (shell, mark) in [
        ("bash", "complete -F _aw"),
        ("zsh", "#compdef aw"),
        ("fish", "complete -c aw"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[aw]"),
    ] {
        // Text even when piped: the script itself.
        let (code, text) = direct(&ws, &["completions", shell]);
        assert_eq!(code, 0, "{shell}");
        assert!(text.contains(mark), "{shell}: {text}");
        assert!(
            text.contains("session-create") && text.contains("color"),
            "{shell}"
        );
        // The same script in the JSON model.
        let (code, json) = direct(&ws, &["completions", shell, "--format", "json"]);
        assert_eq!(code, 0, "{shell}");
        let v = json_of(json);
        assert_eq!(v["shell"], shell);
        assert_eq!(v["script"], text.as_str());
    }
    let v = ws.failure(&["completions", "tcsh"]);
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
    let v = ws.failure(&["completions"]);
    assert_eq!(v["error"]["code"], "ARGS_INVALID");
}

#[test]
fn every_command_and_verb_has_a_man_page() {
    let ws = Ws::bare();
    let page = |args: &[&str]| -> String {
        let mut all = vec!["man"];
        all.extend_from_slice(args);
        let (code, text) = direct(&ws, &all);
        assert_eq!(code, 0, "{all:?}");
        text
    };
    let top = page(&[]);
    assert!(top.starts_with(".ie") || top.starts_with(".TH"), "{top}");
    assert!(top.contains(".TH aw 1 "), "{top}");
    assert!(top.contains(&format!("\"aw {}\"", env!("CARGO_PKG_VERSION"))));
    let mut pages = 1;
    for command in every_command(&ws) {
        let text = page(&[&command]);
        let title = format!(".TH aw-{command} 1 ");
        assert!(text.contains(&title), "{command}: {text}");
        assert!(text.contains(".SH NAME") && text.contains(".SH SYNOPSIS"));
        pages += 1;
        // A group's verbs, each a page of its own.
        let help = help(&ws, &[&command, "--help"]);
        for (_, verbs) in command_sections(&help) {
            for (verb, _) in verbs {
                let text = page(&[&command, &verb]);
                assert!(
                    text.contains(&format!(".TH aw-{command}-{verb} 1 ")),
                    "{command} {verb}: {text}"
                );
                pages += 1;
            }
        }
    }
    assert!(pages > 60, "{pages}");
    // The long help is the page's description.
    assert!(page(&["flow", "advance"]).contains(".SH DESCRIPTION"));
    // The JSON model names the page.
    let (code, json) = direct(&ws, &["man", "flow", "advance", "--format", "json"]);
    assert_eq!(code, 0);
    let v = json_of(json);
    assert_eq!(v["page"], "aw-flow-advance");
    assert!(
        v["roff"]
            .as_str()
            .unwrap()
            .contains(".TH aw-flow-advance 1")
    );
    // A command aw does not have has no page.
    let v = ws.failure(&["man", "flow", "sideways"]);
    assert_eq!(v["error"]["code"], "UNKNOWN_COMMAND");
    assert_eq!(v["error"]["details"]["command"], "sideways");
    // When groff is installed, every page it reads (UTF-8, through preconv as `man` does) is
    // well-formed: no warning.
    if StdCommand::new("groff").arg("--version").output().is_ok() {
        for args in [&[][..], &["sessions"], &["flow", "advance"]] {
            let text = page(args);
            let mut c = StdCommand::new("groff");
            let mut child = c
                .args(["-k", "-man", "-Tutf8", "-ww", "-z"])
                .stdin(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(text.as_bytes())
                .unwrap();
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "{args:?}");
            assert!(
                out.stderr.is_empty(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}
