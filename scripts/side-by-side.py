#!/usr/bin/env python3
"""Runs aw and the reference CLI side by side on the same scenarios and lists where their wire
output differs: exit codes, error codes, JSON keys and shapes, and token-like values (ids, enum
values, paths), never prose.

Usage: scripts/side-by-side.py --aw target/release/aw --reference <command> [--only NAME]...

The reference is any command that runs the reference CLI (for example a wrapper around
`node dist/cli/main.js` of a checkout built elsewhere); this script neither fetches nor builds it
and the project's tests never call it. Each scenario runs twice from scratch, in its own
temporary folder and HOME, once per tool; the differences found are printed per step, then
counted. A difference docs/PROTOCOL.md lists (the LISTED table below names the PROTOCOL text
for each) is counted but not printed unless --all; the rest are printed as not listed. Exit 0
always: it is a report for a person, who decides which difference is a defect to fix and which
to write down in docs/PROTOCOL.md (and in LISTED).
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime

# String values under these keys are compared even when they read like prose: they are enum
# values a script gates on.
ENUM_KEYS = {
    "code", "status", "state", "kind", "phase", "verdict", "outcome", "action_kind",
    "continuity", "freshness", "mode", "type", "result", "reason", "boundary", "classification",
}

PROSE_KEYS = {"message", "action", "next_action", "hint", "summary", "description", "help"}

# Values that depend on the wall clock: the reference ignores AW_TEST_NOW, so they cannot agree.
CLOCK_KEYS = {"checkpoint_age_seconds"}

# The differences docs/PROTOCOL.md lists: (step regex, finding regex, a phrase of the PROTOCOL
# text that lists it). A finding both regexes match is "listed"; the phrase must be in
# PROTOCOL.md (checked at start), so the listing stays true. Anything else is printed as
# unlisted: a defect to fix, or a difference to write down.
LISTED = [
    (r"", r"only in aw", "**Added: keys of aw's own.**"),
    (r"", r"\.(reason|relative|detail)\b.*: aw \"", "**Changed: words are English.**"),
    (r"session-artifacts .*--dump|checkpoint-write", r"\.(objetivo\.size|lines_written)",
     "**Changed: words are English.**"),
    (r"^(status|resume)$", r"terminal_events|pending_retirements|loose_sessions|orphan_units|"
     r"sessions\.active\[\d+\]\.(phase|units)|\$\.pipeline|counts\.pending|\$\.(status|proposal|via|action)\b",
     "## What v22.4.2 prints that aw does not yet"),
    (r"^flow ", r"\$\.proposal: missing", "## What v22.4.2 prints that aw does not yet"),
    (r"^session-create ", r"custody_path|\$\.inputs", "## What v22.4.2 prints that aw does not yet"),
    (r"^skills$", r"operations\[3\]\.effects", "## What v22.4.2 prints that aw does not yet"),
    (r"^flow ", r"boundary\.document|read_set|request_bytes", "**Changed: registry documents.**"),
    (r"^context-plan", r"read_set|receipt|available_signals|\$\.bytes",
     "The bundle is aw's own, so `context-plan` names aw's documents"),
    (r"^skill-index", r"plugin|skills_count|exported_only", "prints `{roots, count, skills}`"),
    (r"^visibility doctor", r"", "**Changed: the doctor judges external sources only.**"),
    (r"^(attach|detach)-multiroot", r"", "**Changed: the attach and detach reports are aw's.**"),
    (r"^self (detect-hosts|doctor)", r"", "**Changed: `detect-hosts` and `doctor` print aw's reports**"),
    (r"^workspace-init --source app:\.$", r"scaffold\.pruned", "**Fixed: empty category folders**"),
    (r"^sources --verbose$", r"\$\.error: missing|\$\.sources: 1 items",
     "**Changed: a workspace without sources has one, implicit: its own folder**"),
    (r"^sources --scope ghost", r"", "An unknown `--scope` alias is `INVALID_INPUT`"),
    (r"^sources --code 909", r"", "A session that cannot be resolved is the resolver's failure"),
    (r"^(stack --project-dir /nonexistent|workspace-init --working-branch ghost:x)", r"",
     "**Changed: refusals where the reference went on.**"),
    (r"^persist prepare", r"\$\.request: missing", "prepare's `inventory` and `semantic` where the reference prints its"),
    (r"^persist validate", r"error\.code", "neither an answer nor `{\"answer\": …}`"),
    (r"^next-number .*--claim .*--code", r"error\.code",
     "`next-number --claim --code <s>` whose session cannot own the claim keeps the resolver's code"),
    (r"^(checkpoint-write|auto-compact-on-close|resume-summary)", r"stderr: empty in the reference",
     "a lifecycle hook that fails says why on stderr"),
    (r"^checkpoint-read|^resume-summary|^session-resume", r"checkpoint\.(actualizado|avance)",
     "**Fixed: both languages are read.**"),
]


def normalise_text(text, sides):
    for path, label in sides:
        text = text.replace(path, label)
    text = re.sub(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?",
                  "<DATE>", text)
    text = re.sub(r"\b[0-9a-f]{64}\b", "<SHA256>", text)
    text = re.sub(r"\b[0-9a-f]{12,40}\b", "<HEX>", text)
    return text


def token_like(s):
    return isinstance(s, str) and not re.search(r"\s", s) and len(s) < 120


def diff(a, r, path, out):
    """Differences between aw's value `a` and the reference's `r` at `path`."""
    if isinstance(a, dict) and isinstance(r, dict):
        for k in r:
            if k not in a:
                out.append(f"{path}.{k}: missing in aw (reference: {short(r[k])})")
        for k in a:
            if k not in r:
                out.append(f"{path}.{k}: only in aw ({short(a[k])})")
        for k in a:
            if k in r:
                diff(a[k], r[k], f"{path}.{k}", out)
        return
    if isinstance(a, list) and isinstance(r, list):
        if len(a) != len(r):
            out.append(f"{path}: {len(a)} items in aw, {len(r)} in the reference")
        for i, (x, y) in enumerate(zip(a, r)):
            diff(x, y, f"{path}[{i}]", out)
        return
    if type(a) is not type(r) and not (is_num(a) and is_num(r)):
        out.append(f"{path}: aw {short(a)} ({kind(a)}), reference {short(r)} ({kind(r)})")
        return
    key = path.rsplit(".", 1)[-1].split("[")[0]
    if key in PROSE_KEYS or key in CLOCK_KEYS:
        return
    if isinstance(a, str):
        if (key in ENUM_KEYS or token_like(a) or token_like(r)) and a != r:
            out.append(f"{path}: aw {short(a)}, reference {short(r)}")
    elif a != r:
        out.append(f"{path}: aw {short(a)}, reference {short(r)}")


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def kind(v):
    return {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}.get(
        type(v), "number")


def short(v):
    s = json.dumps(v, ensure_ascii=False)
    return s if len(s) <= 80 else s[:77] + "..."


def run_side(tool, scenario, root, now):
    """Runs one scenario with `tool` (an argv prefix) in `root`; returns each step's result."""
    home = os.path.join(root, "home")
    ws = os.path.join(root, "ws")
    os.makedirs(home)
    os.makedirs(ws)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "TZ": "UTC",
        "LANG": "C.UTF-8",
        "AW_TEST_NOW": now,
        "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    if scenario.get("setup"):
        subprocess.run(["bash", "-euc", scenario["setup"]], cwd=ws, env={**env, "AW": " ".join(
            shlex.quote(t) for t in tool)}, check=True, stdout=subprocess.DEVNULL)
    results = []
    for step in scenario["steps"]:
        argv, stdin, extra = step["argv"], step.get("stdin"), step.get("env", {})
        cwd = os.path.join(ws, step.get("cwd", ""))
        p = subprocess.run(tool + argv, cwd=cwd, env={**env, **extra}, input=(stdin or "").encode(),
                           capture_output=True, timeout=60)
        results.append((p.returncode, p.stdout.decode("utf-8", "replace"),
                        p.stderr.decode("utf-8", "replace")))
        if step.get("after"):
            subprocess.run(["bash", "-euc", step["after"]], cwd=ws, env=env, check=True)
    return results, [(ws, "<WS>"), (home, "<HOME>"), (root, "<ROOT>")]


def parse_json(text):
    try:
        return json.loads(text)
    except ValueError:
        return None


def compare(scenario, aw, ref, now):
    findings = []
    with tempfile.TemporaryDirectory(prefix="sbs-") as tmp:
        a_res, a_sides = run_side(aw, scenario, os.path.join(tmp, "a"), now)
        r_res, r_sides = run_side(ref, scenario, os.path.join(tmp, "r"), now)
    for step, (a, r) in zip(scenario["steps"], zip(a_res, r_res)):
        label = " ".join(step["argv"])
        out = []
        if a[0] != r[0]:
            out.append(f"exit: aw {a[0]}, reference {r[0]}")
        aj = parse_json(normalise_text(a[1], a_sides))
        rj = parse_json(normalise_text(r[1], r_sides))
        if (aj is None) != (rj is None):
            out.append("stdout: JSON in " + ("the reference only" if aj is None else "aw only"))
        elif aj is not None:
            diff(aj, rj, "$", out)
        if bool(a[2].strip()) != bool(r[2].strip()) and step.get("stderr", True):
            out.append("stderr: " + ("empty in aw" if not a[2].strip() else "empty in the reference"))
        if out:
            findings.append((label, out))
    return findings


# Each scenario: a bash setup run in the workspace folder ($AW names the tool being run), then
# steps (argv, optional stdin, env, cwd, and an `after` shell line run once the step is done).
GIT = "git init -q -b main && git commit -q --allow-empty -m init"
INIT = GIT + " && $AW workspace-init --source app:. >/dev/null"
TWO_SESSIONS = INIT + (
    " && CLAUDE_CODE_SESSION_ID=conv-A $AW session-create --type quick --name one-quick"
    " --objective one --objetivo one >/dev/null 2>&1 || true"
)


def s(*argv, **kw):
    return {"argv": list(argv), **kw}


SCENARIOS = [
    {"name": "init", "setup": GIT, "steps": [
        s("workspace-init", "--source", "app:.", "--dry-run"),
        s("workspace-init", "--source", "app:."),
        s("workspace-init", "--source", "app:."),
        s("project-md-upsert", "--read"),
        s("sources"),
        s("sources", "--verbose"),
        s("sources", "--no-git"),
        s("stack"),
        s("skills"),
        s("status"),
        s("resume"),
        s("sessions"),
        s("visibility", "doctor"),
    ]},
    {"name": "init-no-source", "setup": GIT, "steps": [
        s("workspace-init"),
        s("sources", "--verbose"),
        s("project-md-upsert", "--read"),
    ]},
    {"name": "block", "setup": INIT, "steps": [
        s("set-working-branch", "app", "feature/y"),
        s("set-qa-branch", "app", "qa/y"),
        s("project-md-upsert", "--init", "--fuente", "api:../api"),
        s("project-md-upsert", "--read"),
        s("set-working-branch", "nope", "x"),
        s("set-working-branch"),
        s("remove-source", "app", "--dry-run"),
    ]},
    {"name": "numbering", "setup": INIT + " && mkdir -p docs/specs && touch docs/specs/001-a.md", "steps": [
        s("next-number", "docs/specs"),
        s("next-number", "docs/specs", "--dry-run"),
        s("next-number", "docs/specs", "--claim", "spec-login.md"),
        s("next-number", "docs/specs", "--claim", "spec-login.md"),
        s("next-number", "docs/plans", "--dry-run"),
        s("next-number"),
    ]},
    {"name": "sessions", "setup": INIT, "steps": [
        s("session-create", "--type", "quick", "--name", "fix-quick", "--objetivo", "Fix it"),
        s("sessions"),
        s("sessions", "--state", "all"),
        s("sessions", "--all", "--verbose"),
        s("session-resume", "--code", "001"),
        s("session-artifacts", "--code", "001"),
        s("session-artifacts", "--code", "001", "--dump", "objetivo"),
        s("session-artifacts", "--code", "001", "--dump"),
        s("checkpoint-write", "--code", "001"),
        s("checkpoint-read", "--code", "001"),
        s("resume-summary", "--code", "001"),
        s("session-close", "--code", "001", "--refs", "dec:001"),
        s("sessions", "--state", "closed"),
        s("session-resume", "--code", "001"),
        s("session-resume", "--code", "001", "--reopen"),
        s("history-update", "--code", "001", "--state", "closed"),
        s("session-resume", "--code", "999"),
        s("session-close"),
        s("session-create", "--type", "nope", "--name", "x", "--objetivo", "y"),
        s("status"),
        s("resume"),
    ]},
    {"name": "compact", "setup": INIT, "steps": [
        s("session-create", "--type", "quick", "--name", "one-quick", "--objetivo", "one",
          env={"CLAUDE_CODE_SESSION_ID": "conv-A"}),
        s("session-create", "--type", "quick", "--name", "two-quick", "--objetivo", "two",
          env={"CLAUDE_CODE_SESSION_ID": "conv-B"}),
        s("checkpoint-write", "--can-pause", stdin='{"session_id":"conv-A"}'),
        s("checkpoint-write", "--can-pause", stdin='{"session_id":"conv-C"}'),
        s("checkpoint-write", stdin='{"session_id":"conv-C"}'),
        s("auto-compact-on-close", stdin='{"session_id":"conv-C"}'),
        s("resume-summary", stdin='{"session_id":"conv-B"}'),
        s("checkpoint-write", "--can-pause", stdin='{"session_id":"conv-A"}',
          env={"AW_CONTEXT_ID": "other"}),
        s("next-number", "docs/specs", "--claim", "spec-x.md", "--code", "001"),
        s("session-close", "--code", "001"),
    ]},
    {"name": "flow", "setup": INIT + " && $AW session-create --type quick --name f-quick --objetivo obj >/dev/null", "steps": [
        s("flow", "advance", "--session", "001", "--flow", "quick", "--adopt"),
        s("flow", "advance", "--session", "001"),
        s("flow", "submit", "--session", "001", stdin="{}"),
        s("flow", "advance", "--session", "001", "--flow", "quick", "--adopt", "--host", "claude"),
        s("flow", "advance", "--session", "999"),
    ]},
    {"name": "capability", "setup": INIT, "steps": [
        s("capability", "prepare", "--capability", "design", "--operation", "create",
          "--input", "title=Login"),
        s("capability", "prepare", "--capability", "nope", "--operation", "create"),
        s("designs"),
        s("persist", "prepare"),
        s("persist", "validate", stdin="{}"),
        s("context-plan", "--command", "quick"),
        s("context-plan", "--command", "plan-exec", "--signal", "code"),
        s("context-plan", "--command", "nope"),
        s("skill-index"),
    ]},
    {"name": "multiroot", "setup": INIT + " && mkdir -p ../ext && git -C ../ext init -q", "steps": [
        s("attach-multiroot", "--path", "../ext"),
        s("visibility", "doctor"),
        s("detach-multiroot", "--path", "../ext"),
        s("visibility", "doctor"),
    ]},
    {"name": "errors", "setup": INIT + " && $AW session-create --type quick --name e-quick --objetivo obj >/dev/null", "steps": [
        s("session-close", "--code", "999"),
        s("session-create", "--type", "quick"),
        s("session-create", "--type", "quick", "--name", "x-quick"),
        s("session-create", "--name", "x-quick", "--objetivo", "y"),
        s("session-resume", "--reopen"),
        s("session-resume", "--code", "777", "--reopen"),
        s("session-artifacts", "--dump", "objetivo"),
        s("session-artifacts", "--code", "555"),
        s("checkpoint-read", "--code", "444"),
        s("checkpoint-write", "--code", "444"),
        s("history-update", "--code", "001"),
        s("history-update", "--code", "001", "--state", "weird"),
        s("history-update", "--code", "333", "--state", "closed"),
        s("project-md-upsert"),
        s("project-md-upsert", "--init", "--fuente", "bad"),
        s("set-working-branch", "ghost", "feature/x"),
        s("set-qa-branch", "app"),
        s("remove-source"),
        s("remove-source", "ghost"),
        s("resume", "docs/specs/404-nope.md"),
        s("resume", "--code", "404"),
        s("resume", "x", "--code", "001"),
        s("next-number", "docs/specs", "--claim", "a.md", "--code", "909"),
        s("sources", "--scope", "ghost"),
        s("sources", "--code", "909"),
        s("designs", "--id", "DES-999"),
        s("visibility"),
        s("stack", "--project-dir", "/nonexistent"),
        s("workspace-init", "--source", "bad"),
        s("workspace-init", "--working-branch", "ghost:x"),
    ]},
    {"name": "hooks", "setup": INIT, "steps": [
        s("hook", "branch-check", stdin=""),
        s("hook", "branch-check", stdin="not json"),
        s("hook", "branch-check", stdin='{"tool_name":"Edit","tool_input":{"file_path":"a.txt"}}'),
        s("hook"),
        s("self", "detect-hosts"),
        s("self", "doctor"),
    ]},
]


def listed_by(label, finding):
    """The PROTOCOL phrase that lists this finding, or None."""
    for step_re, finding_re, phrase in LISTED:
        if re.search(step_re, label) and re.search(finding_re, finding):
            return phrase
    return None


def check_listing(protocol_path):
    """Every phrase LISTED cites must be in PROTOCOL.md: a listing that names nothing is none."""
    with open(protocol_path, encoding="utf-8") as f:
        text = f.read()
    missing = sorted({p for _, _, p in LISTED if p not in text})
    if missing:
        sys.exit("side-by-side: these phrases are not in docs/PROTOCOL.md: " + "; ".join(missing))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--aw", required=True, help="the aw binary")
    ap.add_argument("--reference", required=True, help="the command that runs the reference CLI")
    ap.add_argument("--only", action="append", default=[], help="run only this scenario")
    ap.add_argument("--all", action="store_true",
                    help="also print the differences docs/PROTOCOL.md lists (with the phrase)")
    args = ap.parse_args()
    check_listing(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs",
                               "PROTOCOL.md"))
    aw = [os.path.abspath(args.aw)]
    ref = shlex.split(args.reference)
    if shutil.which(ref[0]) is None and not os.path.exists(ref[0]):
        sys.exit(f"side-by-side: the reference command {ref[0]!r} was not found")
    now = datetime.now().strftime("%Y-%m-%d %H:%M")
    total = unlisted = 0
    for sc in SCENARIOS:
        if args.only and sc["name"] not in args.only:
            continue
        findings = compare(sc, aw, ref, now)
        count = sum(len(f) for _, f in findings)
        open_ = sum(1 for label, out in findings for line in out if not listed_by(label, line))
        print(f"## {sc['name']}: {count} difference(s), {open_} not listed in docs/PROTOCOL.md")
        for label, out in findings:
            shown = [(line, listed_by(label, line)) for line in out]
            shown = [(line, why) for line, why in shown if args.all or why is None]
            if not shown:
                continue
            print(f"- `{label}`")
            for line, why in shown:
                print(f"    {line}" + (f"  [listed: {why}]" if why else ""))
        total += count
        unlisted += open_
    print(f"\n{total} difference(s) in all; {total - unlisted} listed in docs/PROTOCOL.md, "
          f"{unlisted} not listed")


if __name__ == "__main__":
    main()
