-- Clean data (issue 14): test events leave the default ranking, and rank, recommend and outcomes
-- can look at one platform or at the app versions from one on, through the rollups.
--
-- 1. segments: per app, the distinct (is_test, platform name, app version) its events were sent
--    with: a small dictionary, much smaller than `contexts` (no locale, menu version or trigger,
--    and the platform by name: "iOS 18.1" and "iOS 17.6" are both `ios`, its leading letters in
--    lower case). version_key is the app version's leading dotted numbers as a numeric array, so
--    that versions order as numbers (4.10 after 4.9) and not as text; NULL when it has none.
--    Written only by the rollup, under the app's rollup lock, with ids counted per app (no
--    sequence, so that the table stays distributable by app_id on Citus: it is colocated with
--    the rollups, not a reference table).
-- 2. segment_command_usage, segment_element_usage: the daily rollups per segment, written in the
--    same statement as the daily rollups (RollupStore), from the same scan of the day's events.
--    Selections, dismissals and sketches (`users`) are exact per segment and add up (sketches by
--    union). user_days: each person of a day is counted once per command, in their first segment
--    of that day for that command: non-test before test, then the highest app version (then the
--    platform name and version text). So any set of segments sums to at most the exact user-days
--    of its events, and exactly to them for every non-test segment (the default), for every
--    segment (--include-test), and for the non-test segments of a version and above
--    (--min-app-version). A platform filter, or a version filter with --include-test, misses a
--    person-day only when that person used a matching and a non-matching segment the same day
--    (say an iPhone and an iPad under one user id), and then counts it under the other segment.
-- 3. daily_command_usage, daily_element_usage (and their blocks) now hold the non-test events
--    only: the default reading stays as fast as it was and exact; the segment rows serve filters.
-- 4. daily_outcomes is kept per segment too (its key gains segment_id); `outcomes` sums the
--    segments a filter picks (opens, dismissals and histograms add up exactly).
--
-- Existing data: days whose events are still kept are queued, so the next rollup (`menurank
-- rollup`, which `recommend` runs first) recomputes them from their events, test events left out
-- of the default. Days whose events retention dropped cannot be told apart any more: their rows
-- stay as they were (test events included) and are copied to the segment of events without a
-- context (not a test, no platform, no version), so every reading still finds them and no filter
-- on platform or version matches them. Until that rollup, the segment rows of the queued days are
-- the same copies.
--
-- Citus: every key leads with app_id; the statements bind days as UTC dates and call no volatile
-- function.

CREATE TABLE segments (
    app_id       integer NOT NULL,
    segment_id   integer NOT NULL,
    is_test      boolean NOT NULL,
    platform     text NOT NULL CHECK (length(platform) <= 64),
    app_version  text NOT NULL CHECK (length(app_version) <= 64),
    version_key  numeric[] GENERATED ALWAYS AS
                     (string_to_array((regexp_match(app_version, '^[0-9]+(?:\.[0-9]+)*'))[1], '.')::numeric[]) STORED,
    PRIMARY KEY (app_id, segment_id),
    UNIQUE (app_id, is_test, platform, app_version)
);

COMMENT ON TABLE segments IS
    'per app, the distinct (is_test, platform name, app version) of its events; platform is the leading letters of the platform sent, in lower case';

CREATE TABLE segment_command_usage (
    app_id          integer NOT NULL,
    day             date NOT NULL,
    segment_id      integer NOT NULL,
    element_type_id integer NOT NULL,
    command_id      integer NOT NULL,
    selections      bigint NOT NULL,
    user_days       bigint NOT NULL,
    users           hll NOT NULL,
    PRIMARY KEY (app_id, day, segment_id, element_type_id, command_id)
);

COMMENT ON COLUMN segment_command_usage.user_days IS
    'the day''s people who picked the command and whose first segment that day (non-test first, then the highest version) is this one';

CREATE TABLE segment_element_usage (
    app_id          integer NOT NULL,
    day             date NOT NULL,
    segment_id      integer NOT NULL,
    element_type_id integer NOT NULL,
    selections      bigint NOT NULL,
    dismissals      bigint NOT NULL,
    users           hll NOT NULL,
    PRIMARY KEY (app_id, day, segment_id, element_type_id)
);

-- The segments of every app's contexts so far, and the segment of events without a context.
INSERT INTO segments (app_id, segment_id, is_test, platform, app_version)
SELECT app_id, row_number() OVER (PARTITION BY app_id ORDER BY is_test, platform, app_version), is_test, platform,
       app_version
FROM (SELECT app_id, is_test, lower(substring(ltrim(platform) from '^[A-Za-z]*')) AS platform, app_version
      FROM contexts
      UNION
      SELECT app_id, false, '', '' FROM apps) AS wanted;

-- Every day rolled up so far, under the segment of events without a context.
INSERT INTO segment_command_usage (app_id, day, segment_id, element_type_id, command_id, selections, user_days, users)
SELECT d.app_id, d.day, s.segment_id, d.element_type_id, d.command_id, d.selections, d.user_days, d.users
FROM daily_command_usage d
JOIN segments s ON s.app_id = d.app_id AND NOT s.is_test AND s.platform = '' AND s.app_version = '';

INSERT INTO segment_element_usage (app_id, day, segment_id, element_type_id, selections, dismissals, users)
SELECT d.app_id, d.day, s.segment_id, d.element_type_id, d.selections, d.dismissals, d.users
FROM daily_element_usage d
JOIN segments s ON s.app_id = d.app_id AND NOT s.is_test AND s.platform = '' AND s.app_version = '';

-- The outcome rollups (sql/0011) gain the segment in their key; the rows so far go to the segment
-- of events without a context.
ALTER TABLE daily_outcomes ADD COLUMN segment_id integer;
UPDATE daily_outcomes o SET segment_id = s.segment_id
FROM segments s
WHERE s.app_id = o.app_id AND NOT s.is_test AND s.platform = '' AND s.app_version = '';
ALTER TABLE daily_outcomes ALTER COLUMN segment_id SET NOT NULL;
ALTER TABLE daily_outcomes DROP CONSTRAINT daily_outcomes_pkey;
ALTER TABLE daily_outcomes ADD PRIMARY KEY (app_id, day, element_type_id, menu_version, segment_id);

-- Days whose events are kept: recomputed by the next rollup (test events then leave the default
-- rows, and each segment gets its own). Days whose partition retention dropped are left as they are
-- (a rollup of such a day would find no events and replace its rows with nothing, see sql/0007).
INSERT INTO rollup_queue (app_id, day)
SELECT DISTINCT app_id, day FROM daily_element_usage
WHERE to_regclass('events_' || to_char(day, 'YYYYMMDD')) IS NOT NULL;
