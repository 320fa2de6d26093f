"""Summaries shared by the benchmark scripts (scripts/bench-ingest, scripts/bench-recommend).

A benchmark runs baseline and menurank in interleaved rounds (ABAB...) on the same data and
reports, for every ratio, the median over the rounds with its spread (min-max) and each round's
figure. A change is a regression when its median ratio falls below the previous run's spread
(see docs/benchmarks.md).
"""
import json
import shutil
import sys
import os


def spread(values):
    """Median, min and max of a list of numbers (the median of an even count is the mean of the
    two middle values)."""
    vs = sorted(v for v in values if v is not None)
    if not vs:
        return {"median": None, "min": None, "max": None, "rounds": list(values)}
    n = len(vs)
    median = vs[n // 2] if n % 2 else (vs[n // 2 - 1] + vs[n // 2]) / 2
    return {"median": round(median, 3), "min": round(vs[0], 3), "max": round(vs[-1], 3),
            "rounds": [None if v is None else round(v, 3) for v in values]}


def describe(s, unit="x"):
    """'0.842x (0.811-0.870 over 5 rounds)'."""
    if s["median"] is None:
        return "n/a"
    return f"{s['median']:.3f}{unit} (spread {s['min']:.3f}-{s['max']:.3f} over {len(s['rounds'])} rounds)"


# A run of fewer rounds (a `--rounds 1 --keep` run that only loads data, say) gives no spread to
# judge a later run by: it is neither compared with nor kept as the reference (`keep_reference`).
MIN_REFERENCE_ROUNDS = 3


def keep_reference(result_path, reference_path, rounds, name):
    """Copies this run's JSON to the reference the next run compares itself with, when it had at
    least MIN_REFERENCE_ROUNDS rounds; else says that the reference is left as it was."""
    if rounds >= MIN_REFERENCE_ROUNDS:
        shutil.copyfile(result_path, reference_path)
    else:
        print(f"{name}: {rounds} round(s): {reference_path}, the reference of the next run, is left as it was",
              file=sys.stderr)


def compare(previous_path, key, current, events=None):
    """A line judging `current` (a spread) against the same ratio in the previous run's JSON, where
    `key` is a path of dictionary keys, when both runs had the same number of `events`. Higher is
    better. Returns None without a previous run."""
    if not os.path.exists(previous_path):
        return None
    try:
        prev = json.load(open(previous_path))
        if events is not None and prev.get("events") != events:
            return f"not compared: the previous run had {prev.get('events')} events, this one {events}"
        for k in key:
            prev = prev[k]
        lo, hi, med = prev["min"], prev["max"], prev["median"]
        runs = len(prev.get("rounds", []))
    except Exception:
        return None
    if runs < MIN_REFERENCE_ROUNDS:
        return f"not compared: the previous run had {runs} round(s), too few for a spread"
    if current["median"] is None or lo is None:
        return None
    if current["median"] < lo:
        verdict = "REGRESSION: the median is below the previous run's spread"
    elif current["median"] > hi:
        verdict = "improvement: the median is above the previous run's spread"
    else:
        verdict = "no change: the median is inside the previous run's spread"
    return f"{verdict} (previous median {med:.3f}, spread {lo:.3f}-{hi:.3f})"
