# shellcheck shell=bash
# `scripts/bench-recommend --citus`: the same data and the same rounds on the 3-node Citus cluster of
# scripts/citus, interleaved with the single node's. Sourced by scripts/bench-recommend, whose
# functions and variables it uses (sql, mr, load_days, round, schema, results, newest...).
#
# The schema `bench` is made in the Citus coordinator's database as well, migrated with
# `menurank migrate --distributed`, and gets the same app, manifest, dictionaries and events (one
# app: all its rows on one shard, as a real app's are). Each round runs on the single node and then,
# with the same arguments, on Citus (`on_citus`), so every Citus figure has a single-node figure
# taken a minute before. Also, once: the `psql \copy` ceiling of one day's events into a table like
# events, local on the single node and distributed by app_id on Citus.

citus_env=""

# Runs "$@" against the Citus coordinator (in a subshell: libpq's variables and db_url switched).
on_citus() {
    (
        eval "$citus_env"
        db_url=$DATABASE_URL
        "$@"
    )
}

# Runs "$@" on the single node, then on Citus when --citus is given.
both() {
    "$@"
    if [ "$citus" = 1 ]; then on_citus "$@"; fi
}

citus_start() {
    echo "Citus: starting the cluster (scripts/citus)..." >&2
    scripts/citus start >/dev/null
    citus_env=$(scripts/citus env)
}

citus_migrate() {
    on_citus mr migrate --distributed >/dev/null
}

# The `psql \copy` ceiling: one day's events (the newest) exported from the single node, copied into
# a table like events in a scratch schema, local on the single node and distributed on Citus.
citus_copy_ceiling() {
    local file t0 t1
    file=$(mktemp /tmp/bench-recommend-copy.XXXXXX)
    sql -c "\\copy (SELECT * FROM events WHERE day = '$newest') TO '$file'"
    copy_rows=$(wc -l <"$file")
    for target in single citus; do
        local run=""
        [ "$target" = citus ] && run=on_citus
        $run sql >/dev/null <<SQL
DROP SCHEMA IF EXISTS bench_copy CASCADE;
CREATE SCHEMA bench_copy;
CREATE TABLE bench_copy.events (LIKE events INCLUDING ALL) PARTITION BY RANGE (day);
CREATE TABLE bench_copy.events_day PARTITION OF bench_copy.events FOR VALUES FROM ('$newest') TO (DATE '$newest' + 1);
SQL
        [ "$target" = citus ] && on_citus sql -c "SELECT create_distributed_table('bench_copy.events', 'app_id', colocate_with => 'none')" >/dev/null
        $run sql -c "CHECKPOINT" >/dev/null
        t0=$(now)
        $run sql -c "\\copy bench_copy.events FROM '$file'"
        t1=$(now)
        if [ "$target" = citus ]; then copy_citus_s=$(elapsed "$t0" "$t1"); else copy_single_s=$(elapsed "$t0" "$t1"); fi
        PGOPTIONS= $run sql -c "DROP SCHEMA bench_copy CASCADE" >/dev/null
    done
    rm -f "$file"
    echo "  psql \\copy of $copy_rows events (one day): single node ${copy_single_s} s, Citus ${copy_citus_s} s" >&2
}

citus_cleanup() {
    [ -n "$citus_env" ] || return 0
    PGOPTIONS= on_citus sql -c "DROP SCHEMA IF EXISTS $schema CASCADE" -c "DROP SCHEMA IF EXISTS bench_copy CASCADE" >/dev/null 2>&1 || true
}

# Prints the Citus rounds against the single node's and writes bench-out/bench-recommend-citus-<time>.json ($1).
citus_report() {
    python3 - "$results" "$1" <<PY
import json, sys
sys.path.insert(0, "$top/scripts/bench.d")
from benchstats import spread, describe
rows = [json.loads(line) for line in open(sys.argv[1])]
def of(history):
    return [r for r in rows if r["history"] == history]
result = {"events": $events, "element_types": $element_types,
          "copy": {"rows": $copy_rows, "single_events_per_s": round($copy_rows / $copy_single_s, 1),
                   "citus_events_per_s": round($copy_rows / $copy_citus_s, 1)}}
print("Citus (coordinator + 2 workers on the same machine, one app: one shard) against the single node, round by round:")
for history in ("14 days", "28 days", "every block level"):
    pairs = list(zip(of(history), of(history + " on Citus")))
    if not pairs:
        continue
    h = {"nightly_vs_single": spread([c["nightly_s"] / s["nightly_s"] for s, c in pairs]),
         "baseline_vs_single": spread([c["baseline_s"] / s["baseline_s"] for s, c in pairs]),
         "ratio": spread([c["baseline_s"] / c["nightly_s"] for _, c in pairs]),
         "nightly_s": spread([c["nightly_s"] for _, c in pairs])}
    if "recommend_alone_s" in pairs[0][0]:
        h["recommend_alone_vs_single"] = spread([c["recommend_alone_s"] / s["recommend_alone_s"] for s, c in pairs])
        h["element_types_per_s"] = spread([$element_types / c["recommend_alone_s"] for _, c in pairs])
    result[history] = h
    print(f"  {history}: nightly (b) on Citus takes {describe(h['nightly_vs_single'])} the single node's time;"
          f" baseline (a) {describe(h['baseline_vs_single'])}")
    print(f"      on Citus (a)/(b) {describe(h['ratio'])}")
    if "element_types_per_s" in h:
        print(f"      recommend alone on Citus {describe(h['recommend_alone_vs_single'])} the single node's time,"
              f" {describe(h['element_types_per_s'], ' element types/s')}")
c = result["copy"]
print(f"  psql \\\\copy ceiling ({c['rows']:,} events of one day): single node {c['single_events_per_s']:,.0f}/s,"
      f" Citus (distributed table) {c['citus_events_per_s']:,.0f}/s = {c['citus_events_per_s'] / c['single_events_per_s']:.3f}x")
json.dump(result, open(sys.argv[2], "w"), indent=2)
print(f"Citus results {sys.argv[2]}")
PY
}

# One round of the costliest night on Citus: worst_round with its rows labelled as Citus'.
citus_worst_round() {
    local tmp
    tmp=$(mktemp)
    results=$tmp on_citus worst_round "$@"
    sed 's/"history": "every block level"/"history": "every block level on Citus"/' "$tmp" >>"$results"
    rm -f "$tmp"
}
