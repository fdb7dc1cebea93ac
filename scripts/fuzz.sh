#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (clang 14, AddressSanitizer + UndefinedBehavior-
# Sanitizer) into build/fuzz and runs them:
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     (default: 60; 0: replay only)
#
# 1. Replays every seed (tests/fuzz/corpus/<corpus>/) and every regression input
#    (tests/fuzz/regressions/<target>/) once through its target.
# 2. Fuzzes each target for SECONDS_PER_TARGET seconds on a scratch copy of its seeds,
#    build/fuzz/corpus/<target>/, which is kept between runs: the repository's corpus grows only
#    when someone copies inputs into it.
#
# Inputs that crash, hang (10 s), leak or use more than 2 GB are written to
# build/fuzz/artifacts/<target>/. Prints one summary line per target and exits 1 when a replay
# failed or fuzzing found anything. Logs are in build/fuzz/logs/.
#
# Environment:
#   DGK_FUZZ_TARGETS  targets to run (default: "fuzz_mesh_spec fuzz_gmsh_reader")
#   DGK_FUZZ_FORK     1 (default): fuzz in a child process that is restarted after a finding,
#                     so one crash does not end the run; 0: stop at the first finding
#   DGK_JOBS          parallel build jobs (default: the CPUs this process may use, scripts/cpus.sh)
set -euo pipefail

seconds="${1:-60}"
case "$seconds" in
  '' | *[!0-9]*)
    echo "fuzz.sh: SECONDS_PER_TARGET must be a whole number, got '$seconds'" >&2
    exit 2
    ;;
esac
targets="${DGK_FUZZ_TARGETS:-fuzz_mesh_spec fuzz_gmsh_reader}"
fork="${DGK_FUZZ_FORK:-1}"
# shellcheck source=cpus.sh
source "$(dirname "${BASH_SOURCE[0]}")/cpus.sh"
jobs="${DGK_JOBS:-$(dgk_cpus)}"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
src="$root/tests/fuzz"
out="$root/build/fuzz"
log() { echo "[dgk fuzz] $*" >&2; }

# ---------------------------------------------------------------------------------------------
# Debian packages
# ---------------------------------------------------------------------------------------------
sudo_cmd=()
if [ "$(id -u)" != 0 ]; then sudo_cmd=(sudo); fi
pkgs=(clang-14 libclang-rt-14-dev cmake ninja-build libeigen3-dev libgmsh-dev gmsh)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---------------------------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------------------------
gen=()
if [ ! -f "$out/CMakeCache.txt" ] && command -v ninja >/dev/null; then gen=(-G Ninja); fi
mkdir -p "$out"
cmake -S "$src" -B "$out" "${gen[@]}" -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$out/configure.log" 2>&1 ||
  { cat "$out/configure.log" >&2; exit 1; }
cmake --build "$out" -j "$jobs" >"$out/build.log" 2>&1 || { tail -n 50 "$out/build.log" >&2; exit 1; }

# ---------------------------------------------------------------------------------------------
# Run
# ---------------------------------------------------------------------------------------------
# Scratch files of processes that crashed are left in tmp; start it afresh.
rm -rf "$out/tmp"
mkdir -p "$out/logs" "$out/work" "$out/tmp"
# Gmsh leaks on some error paths of its own readers; only those are suppressed.
export LSAN_OPTIONS="suppressions=$src/lsan.supp"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The Gmsh target's scratch file and libFuzzer's fork-mode files stay inside build/fuzz.
export TMPDIR="$out/tmp"
# Gmsh executes files that are not MSH as scripts, which may write files next to the working
# directory: keep that inside build/fuzz too.
cd "$out/work"

corpus_of() {
  case "$1" in
    fuzz_mesh_spec) echo mesh_spec ;;
    fuzz_gmsh_reader) echo gmsh ;;
    *) echo "fuzz.sh: unknown target '$1'" >&2; exit 2 ;;
  esac
}
# Target-specific libFuzzer flags: input size bound and dictionary.
flags_of() {
  case "$1" in
    fuzz_mesh_spec) echo "-max_len=64 -dict=$src/mesh_spec.dict" ;;
    fuzz_gmsh_reader) echo "-max_len=4096 -dict=$src/gmsh.dict" ;;
  esac
}
common=(-timeout=10 -rss_limit_mb=2048)

# The line of a libFuzzer/sanitizer log that says best what went wrong.
reason_of() {
  { grep -m1 'runtime error:' "$1" || grep -m1 '^SUMMARY:' "$1" || grep -m1 'ERROR:' "$1" ||
    echo "no sanitizer report"; } | sed -E 's/ \(BuildId: [0-9a-f]+\)//g' | cut -c1-200
}
# What a saved input does when replayed, as one line: inputs with the same
# signature are most likely one bug (a run can save many inputs for it).
signature_of() {
  local bin="$1" input="$2" rlog
  rlog="$out/logs/replay-$(basename "$input").log"
  if "$bin" "${common[@]}" "$input" >"$rlog" 2>&1; then
    echo "does not reproduce"
    return
  fi
  { grep -m1 -E '^fuzz_[a-z_]+: ' "$rlog" | sed -E "s/^([a-z_]+: )'[^']*'/\\1/" || true
    grep -m1 '^SUMMARY:' "$rlog" || echo "no sanitizer summary"; } |
    sed -E 's/ \(BuildId: [0-9a-f]+\)//g' | cut -c1-200 | paste -sd ' ' -
}

status=0
summary=()
for t in $targets; do
  bin="$out/$t"
  c=$(corpus_of "$t")

  # 1. Replay: every seed and regression input once.
  replayed=0
  failed=0
  for f in "$src/corpus/$c"/* "$src/regressions/$t"/*; do
    [ -f "$f" ] || continue
    replayed=$((replayed + 1))
    rlog="$out/logs/replay-$t-$(basename "$f").log"
    if ! "$bin" "${common[@]}" "$f" >"$rlog" 2>&1; then
      failed=$((failed + 1))
      log "$t: replay of ${f#"$root"/} fails: $(reason_of "$rlog") (log: ${rlog#"$root"/})"
    fi
  done

  if [ "$seconds" = 0 ]; then
    result=ok
    if [ "$failed" -gt 0 ]; then result="$failed of $replayed replayed inputs FAIL"; status=1; fi
    summary+=("$(printf '%-17s replayed %3s: %s' "$t" "$replayed" "$result")")
    continue
  fi

  # 2. Fuzz on the scratch corpus.
  scratch="$out/corpus/$t"
  art="$out/artifacts/$t"
  mkdir -p "$scratch" "$art"
  for f in "$src/corpus/$c"/*; do
    [ -f "$f" ] && [ ! -e "$scratch/$(basename "$f")" ] && cp "$f" "$scratch/"
  done
  marker="$out/logs/.start-$t"
  touch "$marker"
  flog="$out/logs/fuzz-$t.log"
  mode=()
  [ "$fork" = 1 ] && mode=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  log "$t: fuzzing for $seconds s (log: ${flog#"$root"/})"
  rc=0
  # shellcheck disable=SC2046
  timeout -k 30 $((2 * seconds + 300)) "$bin" "${common[@]}" $(flags_of "$t") "${mode[@]}" \
    -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$art/" "$scratch" \
    >"$flog" 2>&1 || rc=$?

  # Executions: the last fork-mode status line, or the final statistics of a single process.
  execs=$(grep -oE '^#[0-9]+: cov:' "$flog" | tail -n1 | tr -dc '0-9')
  [ -n "$execs" ] || execs=$(grep -m1 -oE 'stat::number_of_executed_units: *[0-9]+' "$flog" | tr -dc '0-9')
  found=$(find "$art" -maxdepth 1 -type f -newer "$marker" \
    \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
  kinds=""
  for k in crash leak timeout oom; do
    n=$(printf '%s\n' "$found" | grep -c "/$k-" || true)
    [ "$n" -gt 0 ] && kinds="$kinds${kinds:+, }$n $k"
  done
  if [ -n "$found" ]; then
    # Group the new inputs by what they do (at most 50 replayed: a timeout takes 10 s each).
    for f in $(printf '%s\n' "$found" | head -n 50); do
      printf '%s\t%s\n' "$(basename "$f")" "$(signature_of "$bin" "$f")"
    done >"$art/findings.txt"
    distinct=$(cut -f2 "$art/findings.txt" | sort -u | wc -l)
    result="FOUND $kinds ($distinct distinct, see ${art#"$root"/}/findings.txt)"
  elif [ "$rc" -ne 0 ]; then
    result="FAILED (exit $rc, no input saved; see ${flog#"$root"/})"
  else
    result="ok"
  fi
  if [ "$failed" -gt 0 ]; then
    [ "$result" = ok ] && result="nothing new"
    result="$result; $failed of $replayed replayed inputs FAIL"
  fi
  [ "$result" = ok ] || status=1
  summary+=("$(printf '%-17s %9s executions, corpus %4s inputs, replayed %3s: %s' "$t" \
    "${execs:-?}" "$(find "$scratch" -maxdepth 1 -type f | wc -l)" "$replayed" "$result")")
done

printf '%s\n' "${summary[@]}"
exit "$status"
