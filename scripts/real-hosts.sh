#!/usr/bin/env bash
# Real agent hosts read what `aw self install` writes, offline.
#
# Usage: scripts/real-hosts.sh AW_BIN
# Installs the host versions pinned in crates/aw/tests/real-hosts/package-lock.json into a cache
# folder (${AW_REAL_HOSTS_CACHE:-$HOME/.cache/aw-real-hosts}; `npm ci` runs again only when the
# lock changed), installs aw into a temporary HOME for claude and gemini, then:
#   claude: `claude plugin validate --json --strict` on a folder holding the installed skills/ and
#           commands/ plus a generated .claude-plugin/plugin.json; any error or warning fails, and
#           the validator must report the `w` and `design` skills and one command per bundle command;
#   gemini: `gemini skills list` with HOME set to the install home must list `w` and one
#           `w-<command>` skill per bundle command, each once and from its own folder.
# The expected commands are the bundle's (crates/aw-bundle/bundle/commands/*.md).
# AW_REAL_HOSTS_FAKE_INSTALL=1 writes a hand-built layout from the bundle documents instead of
# running aw (to check this script itself). Exits 1 on any failure, naming the host and the file.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pins=$root/crates/aw/tests/real-hosts
bundle=$root/crates/aw-bundle/bundle
cache=${AW_REAL_HOSTS_CACHE:-$HOME/.cache/aw-real-hosts}
fake=${AW_REAL_HOSTS_FAKE_INSTALL:-0}

fail() { echo "real-hosts: FAIL: $*" >&2; exit 1; }

[ $# -eq 1 ] || { echo "usage: $0 AW_BIN" >&2; exit 2; }
aw=$1
# The script works from other folders: an aw given by a relative path is made absolute first.
case $aw in
  /*) ;;
  *) aw=$PWD/$aw ;;
esac
command -v npm >/dev/null || fail "npm is not on PATH"
command -v node >/dev/null || fail "node is not on PATH"
if [ "$fake" != 1 ]; then
  [ -x "$aw" ] || fail "no aw binary at $aw (run: cargo build --release)"
  "$aw" self install --help >/dev/null 2>&1 || fail "$aw has no working 'aw self install'"
fi

commands=()
for f in "$bundle"/commands/*.md; do
  [ -f "$f" ] || continue
  n=${f##*/}
  commands+=("${n%.md}")
done
[ ${#commands[@]} -gt 0 ] || fail "no bundle commands under $bundle/commands"

# --- the pinned hosts, installed once per lock --------------------------------------------------
lock_sum=$(sha256sum "$pins/package-lock.json" | cut -d' ' -f1)
if [ ! -x "$cache/node_modules/.bin/claude" ] || [ ! -x "$cache/node_modules/.bin/gemini" ] ||
  [ "$(cat "$cache/.lock-sha256" 2>/dev/null || true)" != "$lock_sum" ]; then
  echo "real-hosts: installing the pinned hosts into $cache"
  mkdir -p "$cache"
  rm -f "$cache/.lock-sha256"
  cp "$pins/package.json" "$pins/package-lock.json" "$cache/"
  (cd "$cache" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci in $cache failed"
  printf '%s\n' "$lock_sum" >"$cache/.lock-sha256"
fi
claude=$cache/node_modules/.bin/claude
gemini=$cache/node_modules/.bin/gemini
pinned() { node -p "require(process.argv[1]).version" "$cache/node_modules/$1/package.json"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/aw-real-hosts.XXXXXX")
trap 'rm -rf "$work"' EXIT
home=$work/home
mkdir -p "$home" "$work/cwd" "$work/host-home"

# Both hosts run with a clean environment: no credentials, telemetry or update checks, and no
# network at all where user namespaces allow (`unshare -rn`); neither needs one for these checks.
host_env=(env -i PATH="$PATH" TMPDIR="${TMPDIR:-/tmp}" TERM=dumb NO_COLOR=1 CI=1
  DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1)
offline=()
if command -v unshare >/dev/null && unshare -rn true 2>/dev/null; then offline=(unshare -rn); fi

# --- the install under test ---------------------------------------------------------------------
# The layout `aw self install` is specified to write, from the bundle documents; only for checking
# this script while the installer is missing.
fake_install() {
  local h=$1 n
  mkdir -p "$h/.claude/skills/w/commands" "$h/.claude/commands/w" "$h/.claude/skills/design" \
    "$h/.gemini/commands/w"
  cp "$bundle/SKILL.md" "$h/.claude/skills/w/SKILL.md"
  cp "$bundle"/commands/*.md "$h/.claude/skills/w/commands/"
  cp "$bundle"/commands/*.md "$h/.claude/commands/w/"
  printf -- '---\nname: design\ndescription: Create, validate and render design packages with aw.\n---\n\nPlaceholder.\n' \
    >"$h/.claude/skills/design/SKILL.md"
  printf '{}\n' >"$h/.claude/skills/design/workline-capability.json"
  printf '%s\n' '{"hooks":{"PreCompact":[{"hooks":[{"type":"command","command":"aw checkpoint-write"}]}],' \
    '"PreToolUse":[{"matcher":"Edit|Write|MultiEdit|NotebookEdit","hooks":[{"type":"command","command":"aw hook branch-check"}]}],' \
    '"SessionEnd":[{"hooks":[{"type":"command","command":"aw auto-compact-on-close"}]}],' \
    '"PostCompact":[{"hooks":[{"type":"command","command":"aw resume-summary"}]}]}}' >"$h/.claude/settings.json"
  mkdir -p "$h/.gemini/skills"
  cp -R "$h/.claude/skills/w" "$h/.claude/skills/design" "$h/.gemini/skills/"
  for n in "${commands[@]}"; do
    mkdir -p "$h/.gemini/skills/w-$n"
    printf -- '---\nname: w-%s\ndescription: Run the aw %s flow.\n---\n\nRead ../w/commands/%s.md.\n' \
      "$n" "$n" "$n" >"$h/.gemini/skills/w-$n/SKILL.md"
    printf 'description = "Run the aw %s flow."\nprompt = """\nRun the aw %s flow: {{args}}\n"""\n' \
      "$n" "$n" >"$h/.gemini/commands/w/$n.toml"
  done
}

for target in claude gemini; do
  if [ "$fake" = 1 ]; then
    [ "$target" = claude ] && fake_install "$home"
  else
    (cd "$work/cwd" && HOME=$home "$aw" self install --target "$target" >"$work/install-$target.out" 2>&1) ||
      { cat "$work/install-$target.out" >&2; fail "aw self install --target $target failed"; }
  fi
done

# --- claude: the plugin validator ---------------------------------------------------------------
plugin=$work/plugin
[ -d "$home/.claude/skills" ] || fail "claude: nothing installed at ~/.claude/skills"
[ -d "$home/.claude/commands" ] || fail "claude: nothing installed at ~/.claude/commands"
mkdir -p "$plugin/.claude-plugin"
cp -R "$home/.claude/skills" "$home/.claude/commands" "$plugin/"
# A manifest is not needed for the files to be checked, but with one the validator also reports
# the skills and commands it found, which proves it read ours. It needs name, version,
# description and author, or --strict fails on their absence.
# The hooks merged into settings.json use the plugin hooks format, so the validator checks them too
# (an unknown event or a malformed entry is a warning).
if [ -f "$home/.claude/settings.json" ]; then
  mkdir -p "$plugin/hooks"
  node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (s.hooks !== undefined) require("fs").writeFileSync(process.argv[2], JSON.stringify({ hooks: s.hooks }));' \
    "$home/.claude/settings.json" "$plugin/hooks/hooks.json" || fail "claude: ~/.claude/settings.json is not JSON"
fi
version=$(sed -n 's/^  version: *"\{0,1\}\([^"]*\)"\{0,1\} *$/\1/p' "$home/.claude/skills/w/SKILL.md" | head -n 1)
[ -n "$version" ] || fail "claude: no metadata.version in ~/.claude/skills/w/SKILL.md"
printf '{"name":"aw","version":"%s","description":"aw workflow skills and commands","author":{"name":"aw"}}\n' \
  "$version" >"$plugin/.claude-plugin/plugin.json"

set +e
(cd "$work/cwd" && "${host_env[@]}" HOME="$work/host-home" "${offline[@]}" "$claude" plugin validate --json --strict "$plugin") \
  >"$work/claude.json" 2>"$work/claude.err"
claude_rc=$?
set -e
node - "$work/claude.json" "$claude_rc" "$plugin" "${commands[@]}" <<'EOF' || fail "claude: the plugin validator rejects the install (above)"
const fs = require("fs");
const [file, rc, dir, ...commands] = process.argv.slice(2);
let report;
try { report = JSON.parse(fs.readFileSync(file, "utf8")); } catch (e) {
  console.error(`claude: no JSON report (exit ${rc}): ${e.message}`);
  process.exit(1);
}
const problems = [];
const collect = (entry) => {
  if (!entry) return;
  const where = (entry.file || "").replace(dir + "/", "");
  for (const kind of ["errors", "warnings"])
    for (const p of entry[kind] || []) problems.push(`${where}: ${kind.slice(0, -1)} at ${p.path}: ${p.message}`);
};
collect(report.manifest);
(report.contents || []).forEach(collect);
const provides = report.provides || { skills: [], commands: [] };
for (const s of ["w", "design"])
  if (!(provides.skills || []).includes(`aw:${s}`)) problems.push(`skill ${s} is not among what the plugin provides`);
for (const c of commands)
  if (!(provides.commands || []).includes(`aw:w:${c}`)) problems.push(`command w/${c} is not among what the plugin provides`);
if (rc !== "0" || report.success !== true) problems.push(`validator exit ${rc}, success ${report.success}`);
for (const p of problems) console.error(`claude: ${p}`);
process.exit(problems.length ? 1 : 0);
EOF
hooks_note="no hooks in ~/.claude/settings.json"
[ -f "$plugin/hooks/hooks.json" ] && hooks_note="the hooks of ~/.claude/settings.json"
echo "real-hosts: claude $(pinned @anthropic-ai/claude-code) accepts skills/, commands/ and $hooks_note (strict)"

# --- gemini: the skills it discovers ------------------------------------------------------------
[ -d "$home/.gemini/skills" ] || fail "gemini: nothing installed at ~/.gemini/skills"
set +e
(cd "$work/cwd" && "${host_env[@]}" HOME="$home" "${offline[@]}" "$gemini" skills list) \
  </dev/null >"$work/gemini.out" 2>"$work/gemini.err"
gemini_rc=$?
set -e
if [ "$gemini_rc" -ne 0 ]; then
  cat "$work/gemini.err" >&2
  fail "gemini: skills list exited $gemini_rc"
fi
missing=0
for name in w "${commands[@]/#/w-}"; do
  # A skill is listed as `<name> [Enabled]` and then its location: it must be listed once, enabled,
  # from its own folder (gemini names a skill by its frontmatter and drops one without a name or
  # description without an error).
  count=$(grep -c -x "$name \[Enabled\]" "$work/gemini.out" || true)
  location=$(grep -A2 -x "$name \[Enabled\]" "$work/gemini.out" | sed -n 's/^ *Location: *//p' | head -n 1 || true)
  if [ "$count" != 1 ]; then
    echo "gemini: skill $name is listed enabled $count times (expected once)" >&2
    missing=1
  elif [ "$location" != "$home/.gemini/skills/$name/SKILL.md" ]; then
    echo "gemini: skill $name comes from $location, not ~/.gemini/skills/$name/SKILL.md" >&2
    missing=1
  fi
done
if [ "$missing" -ne 0 ]; then
  sed 's/^/  | /' "$work/gemini.out" "$work/gemini.err" >&2
  fail "gemini: skills list does not show the installed skills"
fi
echo "real-hosts: gemini $(pinned @google/gemini-cli) lists w and ${#commands[@]} w-<command> skills"
