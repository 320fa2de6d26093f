# shellcheck shell=bash
# `scripts/bench-ingest --citus`: the same workload on the 3-node Citus cluster of scripts/citus, in
# the same rounds as the single node. Sourced by scripts/bench-ingest, whose variables it uses (bin,
# sim, seed, work, first_day, last_day, concurrency, events, round, rss...).
#
# Setup: a database of its own on every node (scripts/citus createdb), migrated with
# `menurank migrate --distributed`, the app `bench`, a ceiling table `ceiling.events` like the
# events table and distributed by app_id too, and a second daemon on the coordinator. Each round,
# after the single node's phases, (a) `psql \copy` of the same COPY rows into ceiling.events and
# (b) the same pregenerated batches through that daemon; the library phase (c) measures the client,
# not the database, so it runs on the single node only. One app, as on the single node: all its
# rows hash to one shard, so each phase writes through the coordinator to one worker.

citus_db="menurank_bench_citus_$$"
citus_url=""
citus_serve_pid=""
citus_rounds="$work/citus-rounds.jsonl"

citus_psql() { psql "$citus_url" -X -q -v ON_ERROR_STOP=1 -At "$@"; }

citus_setup() {
    say "Citus: starting the cluster (scripts/citus) and database $citus_db"
    citus_url=$(scripts/citus createdb "$citus_db")
    "$bin" migrate --distributed --database "$citus_url" >&2
    "$bin" apps create bench --format json --database "$citus_url" >"$work/citus-keys.json"
    citus_write_key=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["write_key"])' "$work/citus-keys.json")
    citus_app_id=$(citus_psql -c "SELECT app_id FROM apps WHERE name = 'bench'")
    citus_psql >/dev/null <<SQL
CREATE SCHEMA ceiling;
CREATE TABLE ceiling.events (LIKE public.events INCLUDING ALL) PARTITION BY RANGE (day);
SELECT create_distributed_table('ceiling.events', 'app_id', colocate_with => 'none');
DO \$\$
DECLARE d date := '$first_day';
BEGIN
    WHILE d <= '$last_day' LOOP
        EXECUTE format('CREATE TABLE ceiling.%I PARTITION OF ceiling.events FOR VALUES FROM (%L) TO (%L)',
                       'events_' || to_char(d, 'YYYYMMDD'), d, d + 1);
        -- Each day's dedupe key, as ensure_event_partitions makes it (sql/0015).
        EXECUTE format('CREATE UNIQUE INDEX ON ceiling.%I (app_id, event_id)', 'events_' || to_char(d, 'YYYYMMDD'));
        d := d + 1;
    END LOOP;
END \$\$;
SELECT public.ensure_event_partitions('$first_day', '$last_day');
SQL
    citus_copy="$work/events.copy"
    if [ "$citus_app_id" != "$app_id" ]; then
        citus_copy="$work/citus-events.copy"
        "${sim[@]}" --seed "$seed" --out "$citus_copy" --out-format copy --app-id "$citus_app_id"
    fi
    # shellcheck disable=SC2086
    "$bin" serve --listen 127.0.0.1:0 --database "$citus_url" ${BENCH_SERVE_FLAGS:-} 2>"$work/citus-serve.log" &
    citus_serve_pid=$!
    citus_port=""
    for _ in $(seq 1 300); do
        citus_port=$(grep -oE '(port=|127\.0\.0\.1:)[1-9][0-9]*' "$work/citus-serve.log" | head -1 | grep -oE '[0-9]+$' || true)
        [ -n "$citus_port" ] && break
        kill -0 "$citus_serve_pid" 2>/dev/null || { cat "$work/citus-serve.log" >&2; say "the Citus daemon exited"; exit 1; }
        sleep 0.1
    done
    [ -n "$citus_port" ] || { cat "$work/citus-serve.log" >&2; say "the Citus daemon did not log its port"; exit 1; }
    : >"$citus_rounds"
}

citus_round() {
    local t0 t1 rows stored
    citus_psql -c "TRUNCATE ceiling.events; TRUNCATE public.events, public.rollup_queue, public.ingest_commits" \
        -c "CHECKPOINT" >/dev/null
    say "  (a) Citus ceiling: psql \\copy into the distributed ceiling.events"
    t0=$(seconds)
    citus_psql -c "\\copy ceiling.events FROM '$citus_copy'"
    t1=$(seconds)
    rows=$(citus_psql -c "SELECT count(*) FROM ceiling.events")
    say "  (b) Citus daemon: menurank serve on the coordinator, the same batches"
    citus_psql -c "CHECKPOINT" >/dev/null
    "${sim[@]}" --seed "$seed" --url "http://127.0.0.1:$citus_port" --key "$citus_write_key" \
        --concurrency "$concurrency" --pregenerate --format json >"$work/citus-simulate.json" \
        || { cat "$work/citus-simulate.json" >&2; say "simulate against Citus failed"; }
    stored=$(citus_psql -c "SELECT count(*) FROM public.events")
    python3 - "$work/citus-simulate.json" >>"$citus_rounds" <<PY
import json, sys
sim = json.load(open(sys.argv[1]))
print(json.dumps({"round": $round, "load_average": "$(cut -d' ' -f1-3 /proc/loadavg)",
                  "ceiling_events_per_s": round($rows / ($t1 - $t0), 1), "ceiling_rows": $rows,
                  "daemon_events_per_s": sim["events_per_s"], "accepted": sim["accepted"],
                  "http_errors": sim["http_errors"], "stored": $stored, "latency_ms": sim["latency_ms"]}))
PY
    python3 - "$citus_rounds" <<'PY' >&2
import json, sys
r = json.loads(open(sys.argv[1]).read().splitlines()[-1])
print(f"  round {r['round']} on Citus: ceiling {r['ceiling_events_per_s']:,.0f}/s, daemon {r['daemon_events_per_s']:,.0f}/s"
      f" ({r['daemon_events_per_s'] / r['ceiling_events_per_s']:.3f}x)")
PY
}

citus_cleanup() {
    if [ -n "$citus_serve_pid" ] && kill -0 "$citus_serve_pid" 2>/dev/null; then
        kill -TERM "$citus_serve_pid" 2>/dev/null || true
        wait "$citus_serve_pid" 2>/dev/null || true
    fi
    citus_serve_pid=""
    if [ -n "$citus_url" ] && [ "$keep" -eq 0 ]; then scripts/citus dropdb "$citus_db" >/dev/null 2>&1 || true; fi
}

# Prints the Citus figures against the single node's of the same rounds ($1: the single node's
# rounds, JSON lines) and writes them to bench-out/bench-ingest-citus-<time>.json ($2).
citus_report() {
    python3 - "$1" "$citus_rounds" "$2" <<PY
import json, sys
sys.path.insert(0, "$top/scripts/bench.d")
from benchstats import spread, describe
single = [json.loads(line) for line in open(sys.argv[1])]
citus = [json.loads(line) for line in open(sys.argv[2])]
pairs = list(zip(single, citus))
result = {
    "events": $events, "rounds": citus,
    "ceiling_events_per_s": spread([c["ceiling_events_per_s"] for c in citus]),
    "daemon_events_per_s": spread([c["daemon_events_per_s"] for c in citus]),
    "daemon_vs_single_daemon": spread([c["daemon_events_per_s"] / s["daemon"]["events_per_s"] for s, c in pairs]),
    "ceiling_vs_single_ceiling": spread([c["ceiling_events_per_s"] / s["ceiling"]["events_per_s"] for s, c in pairs]),
    "daemon_vs_citus_ceiling": spread([c["daemon_events_per_s"] / c["ceiling_events_per_s"] for c in citus]),
    "stored_equals_accepted": all(c["stored"] == c["accepted"] for c in citus),
}
json.dump(result, open(sys.argv[3], "w"), indent=2)
print("Citus (coordinator + 2 workers on the same machine, one app: one shard), the same rounds:")
print(f"{'round':<6} {'ceiling/s':>12} {'daemon/s':>12} {'ratio':>7} {'vs 1 node':>10} {'p50 ms':>7} {'p99 ms':>7}  load")
for s, c in pairs:
    print(f"{c['round']:<6} {c['ceiling_events_per_s']:>12,.0f} {c['daemon_events_per_s']:>12,.0f}"
          f" {c['daemon_events_per_s'] / c['ceiling_events_per_s']:>7.3f} {c['daemon_events_per_s'] / s['daemon']['events_per_s']:>10.3f}"
          f" {c['latency_ms']['p50']:>7} {c['latency_ms']['p99']:>7}  {c['load_average']}")
print(f"Citus daemon / single-node daemon     {describe(result['daemon_vs_single_daemon'])}")
print(f"Citus \\\\copy / single-node \\\\copy       {describe(result['ceiling_vs_single_ceiling'])}")
print(f"Citus daemon / Citus \\\\copy ceiling    {describe(result['daemon_vs_citus_ceiling'])}")
print(f"Citus accepted = stored               {'yes' if result['stored_equals_accepted'] else 'NO'} in every round")
print(f"Citus results                         {sys.argv[3]}")
PY
}
