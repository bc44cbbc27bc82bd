#!/usr/bin/env bash
# Times `lapiz --threads 1 count --file F` side by side with tdoku's fastest solver (its DPLL
# triad SIMD solver, C++, -O3 -march=native) counting to 2 on the same file: one process each,
# runs alternating (tdoku, lapiz, tdoku, ...) so both see the same load, CPU time per run
# (perf's task-clock when perf works, else the shell's user + system time). The two outputs are
# first compared byte for byte (same counts, same lines).
#
#   benches/tdoku/compare.sh FILE...          e.g. ../shared/data/puzzles/17-clue.txt
#
# Environment: RUNS (runs per program and file, default 5); CXX (default clang++, else g++);
# TDOKU_DIR (a checkout of github.com/t-dillon/tdoku; default: cloned into target/tdoku at the
# commit below, which needs network access). tdoku is fetched and built at run time only: its
# code is not part of lapiz. Not run by CI (network, a C++ compiler, timing).
set -euo pipefail

TDOKU_COMMIT=0172ae3765aa4a047712bf10a4515f5ce2f9b279
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=${RUNS:-5}
[ $# -ge 1 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

work=$root/target/tdoku
mkdir -p "$work"
src=${TDOKU_DIR:-$work/tdoku}
if [ ! -f "$src/src/solver_dpll_triad_simd.cc" ]; then
    git clone --quiet https://github.com/t-dillon/tdoku "$src"
    git -C "$src" checkout --quiet "$TDOKU_COMMIT"
fi
cxx=${CXX:-$(command -v clang++ || command -v g++ || true)}
[ -n "$cxx" ] || { echo "compare.sh: no C++ compiler (set CXX)" >&2; exit 1; }
echo "tdoku: $src ($(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo 'not a git checkout')), $("$cxx" --version | head -1)"
"$cxx" -O3 -march=native -std=c++17 -I"$src/src" -o "$work/tdoku_count" \
    "$here/driver.cc" "$src/src/solver_dpll_triad_simd.cc" "$src/src/util.cc"
(cd "$root" && cargo build --release --quiet --bin lapiz)
tdoku=$work/tdoku_count
lapiz=$root/target/release/lapiz

# CPU milliseconds of one run of the command, its output thrown away.
if perf stat -e task-clock -x, -o /dev/null true 2>/dev/null; then
    cpu_ms() {
        perf stat -e task-clock -x, -o "$work/stat" -- "$@" >/dev/null
        awk -F, '/task-clock/ { printf "%.1f\n", $1 }' "$work/stat"
    }
else
    cpu_ms() {
        local TIMEFORMAT='%3U %3S' t
        t=$({ time "$@" >/dev/null; } 2>&1)
        awk '{ printf "%.1f\n", 1000 * ($1 + $2) }' <<<"$t"
    }
fi

# Minimum and median of the numbers on stdin.
min_median() { sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.1f %.1f\n", v[1], m }'; }

printf '%-40s %8s %22s %22s %16s\n' file puzzles "tdoku ms (min, median)" "lapiz ms (min, median)" "ratio min, med"
for f in "$@"; do
    if ! cmp -s <("$tdoku" "$f") <("$lapiz" --threads 1 count --file "$f"); then
        echo "compare.sh: tdoku and lapiz disagree on $f" >&2
        exit 1
    fi
    : >"$work/t.ms"
    : >"$work/l.ms"
    for _ in $(seq "$runs"); do
        cpu_ms "$tdoku" "$f" >>"$work/t.ms"
        cpu_ms "$lapiz" --threads 1 count --file "$f" >>"$work/l.ms"
    done
    read -r tmin tmed < <(min_median <"$work/t.ms")
    read -r lmin lmed < <(min_median <"$work/l.ms")
    n=$(grep -cv -e '^#' -e '^[[:space:]]*$' "$f")
    printf '%-40s %8d %11.1f %10.1f %11.1f %10.1f %7.3f %8.3f\n' "$(basename "$f")" "$n" \
        "$tmin" "$tmed" "$lmin" "$lmed" "$(awk "BEGIN { print $lmin / $tmin }")" \
        "$(awk "BEGIN { print $lmed / $tmed }")"
done
