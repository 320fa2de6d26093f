#!/usr/bin/env python3
"""Helpers of scripts/real-data (the IntelliJ Project View data, read in place, never copied).

    real-data.py events COUNTS AS_OF                    JSON Lines events of counts.csv on stdout
    real-data.py ladder BIN MANIFEST COUNTS AS_OF [N]   the ladder, step by step, with N (20) resamples

`events`: for each csv row (user, command, count), `count` select events whose id and time come
from 64-bit hashes (FNV-1a, then fmix64) of "user/command/index" (ids v4-shaped, days spread over
the 28 days ending at AS_OF, seconds over the day). Tests/CLITests/RealDataTests.swift makes the
same events.

`ladder`: runs the database-free `recommend --manifest --events` on the data and on N resamples of
its people (drawn with replacement; a person drawn twice counts as two people), and prints for each
step of the ladder: the commands it moves and their share of the menu's commands, the catch-all
submenus it holds (a submenu whose commands come from more than one category of the current
layout; must be 0), the scan depth averaged over people (each person's picks weighted by their own
shares, then the mean over people), over selections and over user-days (each person's
picks counted once a day, the weight the ordering uses), and its reproducibility: in how many
resamples the same step holds the same layout, and in how many the same step is filed with the
same layout and the same top-level commands. For reference, the issue's plain split menu
(`split-6`: the six commands with the largest average share per person promoted into two groups at
the head, everything else in place) is measured the same way, and so is `split-6c`, the split menu
that keeps the conventions every step keeps (no destructive or pinned command promoted; Cut, Copy
and Paste one unit of three places): the best a convention-keeping promote step could do if the
evidence allowed every move.
"""
import csv
import datetime
import json
import os
import random
import subprocess
import sys
import tempfile

MASK = 0xFFFFFFFFFFFFFFFF


def fnv1a64(text):
    """FNV-1a 64 of the UTF-8 bytes, then MurmurHash3's fmix64 so that the low bits mix too."""
    value = 0xcbf29ce484222325
    for byte in text.encode("utf-8"):
        value = ((value ^ byte) * 0x100000001b3) & MASK
    value ^= value >> 33
    value = (value * 0xff51afd7ed558ccd) & MASK
    value ^= value >> 33
    value = (value * 0xc4ceb9fe1a85ec53) & MASK
    return value ^ (value >> 33)


def event_id(key):
    raw = bytearray(fnv1a64("id-high/" + key).to_bytes(8, "big") + fnv1a64("id-low/" + key).to_bytes(8, "big"))
    raw[6] = (raw[6] & 0x0F) | 0x40
    raw[8] = (raw[8] & 0x3F) | 0x80
    h = raw.hex()
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def read_rows(counts_path):
    """The csv's rows as (user, command, count)."""
    with open(counts_path, newline="") as handle:
        return [(row["user"], row["command"], int(row["count"])) for row in csv.DictReader(handle)]


def write_events(rows, as_of, out):
    """The selection events of `rows`; returns how many."""
    last = datetime.date.fromisoformat(as_of)
    days = [(last - datetime.timedelta(days=27 - offset)).isoformat() for offset in range(28)]
    total = 0
    for user, command, count in rows:
        for index in range(count):
            key = f"{user}/{command}/{index}"
            when = fnv1a64("time/" + key)
            day, second = days[when % 28], (when // 28) % 86400
            out.write('{"id":"%s","time":"%sT%02d:%02d:%02dZ","element_type":"project.file","command":"%s",'
                      '"kind":"select","user":"%s"}\n'
                      % (event_id(key), day, second // 3600, second // 60 % 60, second % 60, command, user))
            total += 1
    return total


# The ladder report ------------------------------------------------------------------------------

def costs(groups):
    """Each command's scan cost in a layout (DESIGN.md invariant 9; the first listing wins)."""
    out = {}

    def visit(items, base):
        for index, item in enumerate(items):
            cost = base + index + 1
            if isinstance(item, str):
                out.setdefault(item, cost)
            else:
                visit(item["items"], cost)

    visit([item for group in groups for item in group], 0)
    return out


def item_count(groups):
    def count(items):
        return sum(1 if isinstance(i, str) else 1 + count(i["items"]) for i in items)
    return sum(count(g) for g in groups)


def categories(groups):
    """A command's category in the current layout: its outermost submenu, else its group."""
    out = {}
    for index, group in enumerate(groups):
        def visit(item, outer):
            if isinstance(item, str):
                out.setdefault(item, outer or "group %d" % (index + 1))
            else:
                for inner in item["items"]:
                    visit(inner, outer or "submenu " + item["submenu"])
        for item in group:
            visit(item, None)
    return out


def catch_alls(groups, category):
    """Submenus of `groups` holding commands of more than one category (a command counts where it
    is first listed: the current menu lists RenameElement twice, at the top level and in Refactor)."""
    out = []
    seen = set()

    def first(items):
        held = []
        for i in items:
            if isinstance(i, str):
                if i not in seen:
                    seen.add(i)
                    held.append(i)
            else:
                held += first(i["items"])
        return held

    for item in (i for g in groups for i in g):
        if isinstance(item, str):
            seen.add(item)
        elif len({category.get(c) for c in first(item["items"])}) > 1:
            out.append(item["submenu"])
    return out


def split_menu(current, per_person, count=6, commands=None):
    """The issue's reference: the `count` commands with the largest average share per person
    promoted into groups of three at the head, everything else in place.

    With `commands` (the manifest's command attributes), the split menu that keeps the conventions
    of invariants 4 and 5 instead: no destructive or pinned command is promoted, and Cut, Copy and
    Paste of one top-level group are one unit of three places that ranks by its share per place
    (units are never split across the two groups)."""
    shares = {}
    for picks in per_person.values():
        total = sum(picks.values())
        for c, n in picks.items():
            shares[c] = shares.get(c, 0) + n / total / len(per_person)
    listed = set(categories(current))
    if commands is None:
        top = [c for c, _ in sorted(shares.items(), key=lambda kv: (-kv[1], kv[0])) if c in listed][:count]
    else:
        def attribute(c, name):
            return bool(commands.get(c, {}).get(name))

        def clipboard_role(c):
            info = commands.get(c, {})
            role = info.get("role") or {"Cut": "cut", "Copy": "copy", "Paste": "paste"}.get(info.get("title"))
            return role if role in ("cut", "copy", "paste") else None

        units = []
        for group in current:
            clip = sorted((c for c in group if isinstance(c, str) and clipboard_role(c)),
                          key=lambda c: ["cut", "copy", "paste"].index(clipboard_role(c)))
            if len(clip) >= 2:
                units.append(clip)
        in_unit = {c for unit in units for c in unit}
        units += [[c] for c in listed if c not in in_unit]
        units = [u for u in units if not any(attribute(c, "destructive") or attribute(c, "pinned") for c in u)]
        units.sort(key=lambda u: (-sum(shares.get(c, 0) for c in u) / len(u), u[0]))
        groups = []
        for unit in units:
            if sum(len(g) for g in groups) >= count:
                break
            if groups and len(groups[-1]) + len(unit) <= 3:
                groups[-1] += unit
            elif len(groups) < (count + 2) // 3 and len(unit) <= 3:
                groups.append(list(unit))
        top = [c for g in groups for c in g]

    def without(items):
        out = []
        for i in items:
            if isinstance(i, str):
                if i not in top:
                    out.append(i)
            else:
                inner = without(i["items"])
                if len(inner) == 1 and isinstance(inner[0], str):
                    out.append(inner[0])
                elif inner:
                    out.append({"submenu": i["submenu"], "items": inner})
        return out

    rest = [g for g in (without(g) for g in current) if g]
    head = groups if commands is not None else [top[i:i + 3] for i in range(0, len(top), 3)]
    return head + rest


def top_level(groups):
    return sorted(i for g in groups for i in g if isinstance(i, str))


def depth_over_people(groups, per_person, fallback):
    """Scan depth averaged over people: each person's expected depth under their own picks."""
    cost = costs(groups)
    depths = []
    for picks in per_person.values():
        total = sum(picks.values())
        if total > 0:
            depths.append(sum(n * cost.get(c, fallback) for c, n in picks.items()) / total)
    return sum(depths) / len(depths)


def user_days(rows):
    """Per person, each command's user-days in the generated events: the distinct days of the 28
    on which `write_events` puts the person's picks (the weight DESIGN.md orders by)."""
    out = {}
    for user, command, count in rows:
        days = {fnv1a64("time/%s/%s/%d" % (user, command, index)) % 28 for index in range(count)}
        out.setdefault(user, {})[command] = out.get(user, {}).get(command, 0) + len(days)
    return out


def depth_over_selections(groups, per_person, fallback):
    cost = costs(groups)
    picks = {}
    for person in per_person.values():
        for c, n in person.items():
            picks[c] = picks.get(c, 0) + n
    total = sum(picks.values())
    return sum(n * cost.get(c, fallback) for c, n in picks.items()) / total


def recommend(binary, manifest, rows, as_of, folder):
    path = os.path.join(folder, "events.jsonl")
    with open(path, "w") as out:
        write_events(rows, as_of, out)
    result = subprocess.run([binary, "recommend", "--manifest", manifest, "--events", path, "--as-of", as_of,
                             "--format", "json"], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("recommend --manifest --events failed: " + result.stderr[-2000:])
    document = json.loads(result.stdout)
    return next(e for e in document["element_types"] if e["element_type"] == "project.file")


def ladder(binary, manifest_path, counts_path, as_of, draws):
    with open(manifest_path) as handle:
        manifest = json.load(handle)
    current = manifest["menus"]["project.file"]["groups"]
    commands = manifest.get("commands", {})
    rows = [row for row in read_rows(counts_path) if row[2] > 0]
    people = sorted({user for user, _, _ in rows})
    per_person = {}
    for user, command, count in rows:
        per_person.setdefault(user, {})[command] = per_person.get(user, {}).get(command, 0) + count
    category = categories(current)
    listed = len(category)
    fallback = item_count(current) + 1
    by_user = {}
    for row in rows:
        by_user.setdefault(row[0], []).append(row)

    with tempfile.TemporaryDirectory() as folder:
        observed = recommend(binary, manifest_path, rows, as_of, folder)
        steps = {s["step"]: s for s in observed["ladder"]}
        filed = observed.get("step")
        same_layout = {name: 0 for name in steps}
        same_filed = 0
        same_top = 0
        generator = random.Random(27)
        for draw in range(draws):
            drawn = []
            for index in range(len(people)):
                user = people[generator.randrange(len(people))]
                drawn += [("%s~%d" % (user, index), command, count) for _, command, count in by_user[user]]
            entry = recommend(binary, manifest_path, drawn, as_of, folder)
            again = {s["step"]: s for s in entry["ladder"]}
            for name, step in steps.items():
                if step["offered"] and again[name]["offered"] and again[name]["groups"] == step["groups"]:
                    same_layout[name] += 1
            if entry.get("step") == filed and entry["proposed"]["groups"] == observed["proposed"]["groups"]:
                same_filed += 1
            if top_level(entry["proposed"]["groups"]) == top_level(observed["proposed"]["groups"]):
                same_top += 1

    days = user_days(rows)

    def depths(groups):
        """Scan depth averaged over people, over selections and over user-days."""
        return (depth_over_people(groups, per_person, fallback), depth_over_selections(groups, per_person, fallback),
                depth_over_selections(groups, days, fallback))

    print("%d commands, %d people; %d resamples of people (with replacement)" % (listed, len(people), draws))
    print("%-8s %-7s %-13s %-10s %-14s %-17s %-16s %s" % ("step", "filed", "moved", "catch-all", "depth/people",
                                                           "depth/selections", "depth/user-days", "same layout"))
    print("%-8s %-7s %-13s %-10s %-14.2f %-17.2f %-16.2f" % (("current", "", "", len(catch_alls(current, category)))
                                                            + depths(current)))
    reference = split_menu(current, per_person)
    print("%-8s %-7s %-13s %-10d %-14.2f %-17.2f %-16.2f" % (("split-6", "", "", len(catch_alls(reference, category)))
                                                            + depths(reference)))
    kept = split_menu(current, per_person, commands=commands)
    print("%-8s %-7s %-13s %-10d %-14.2f %-17.2f %-16.2f" % (("split-6c", "", "", len(catch_alls(kept, category)))
                                                            + depths(kept)))
    for name in ["promote", "reorder", "regroup"]:
        step = steps[name]
        if not step["offered"]:
            print("%-8s not offered: %s" % (name, step["why_not"]))
            continue
        groups = step["groups"]
        print("%-8s %-7s %-13s %-10d %-14.2f %-17.2f %-16.2f %d of %d" % (
            (name, "yes" if name == filed else "no",
             "%d (%.1f%%)" % (step["moves"], 100.0 * step["moves"] / listed), len(catch_alls(groups, category)))
            + depths(groups) + (same_layout[name], draws)))
    if filed in steps and steps[filed]["offered"]:
        # The filed step's gain as a share of the split menu's, under each weight: averaging people
        # weighs a command by the shares of the people who use it, user-days (the ordering weight)
        # by the days people use it.
        ours, split, now = depths(steps[filed]["groups"]), depths(reference), depths(current)
        shares = ["%s %.0f%%" % (label, 100.0 * (now[i] - ours[i]) / (now[i] - split[i]) if now[i] != split[i] else 0)
                  for i, label in enumerate(["over people", "over selections", "over user-days"])]
        print("the filed step's scan-depth gain as a share of split-6's: " + ", ".join(shares))
        conventional = depths(kept)
        shares = ["%s %.0f%%" % (label, 100.0 * (now[i] - ours[i]) / (now[i] - conventional[i])
                                 if now[i] != conventional[i] else 0)
                  for i, label in enumerate(["over people", "over selections", "over user-days"])]
        print("and of split-6c's (the split menu that keeps the conventions): " + ", ".join(shares))
    evidence = observed["evidence"]
    print("filed step: %s; stability claimed %s%s" % (filed, evidence.get("stability"),
                                                      " (tentative, not filed)" if evidence.get("tentative") else ""))
    print("the same step filed with the same layout in %d of %d resamples; the same top-level commands in %d of %d"
          % (same_filed, draws, same_top, draws))
    bad = [name for name, step in steps.items() if step["offered"] and catch_alls(step["groups"], category)]
    if bad:
        sys.exit("catch-all submenus in " + ", ".join(bad))


def main(arguments):
    if len(arguments) >= 3 and arguments[0] == "events":
        total = write_events(read_rows(arguments[1]), arguments[2], sys.stdout)
        print(f"{total} events", file=sys.stderr)
    elif len(arguments) in (5, 6) and arguments[0] == "ladder":
        ladder(arguments[1], arguments[2], arguments[3], arguments[4], int(arguments[5]) if len(arguments) == 6 else 20)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
