-- A day's per-segment rollups are not stored twice (issue 27, the nightly run's cost): on a day
-- when one segment's rows are exactly the default rows (typically the day's only non-test segment,
-- with no test events or with test events of their own segment), the rollup writes the default rows
-- alone and notes that segment in `segment_default_days`, instead of a second copy of every command
-- and element row under the segment (about half of a day's rollup bytes, and of the rows a night
-- writes and deletes when an app sends one app version from one platform).
--
-- 1. The per-segment tables (sql/0014) keep their rows and become `segment_command_rows` and
--    `segment_element_rows`: what is stored per segment. Rows stored before this migration stay
--    there, so nothing is rewritten.
-- 2. segment_default_days: per app and day, at most one segment whose rows are the day's default
--    rows (`daily_command_usage`, `daily_element_usage`). The rollup decides by comparing the rows
--    it computed (equal in every column: selections, user-days, sketches, split by person bucket),
--    so the note never changes what a reading gives. It is a daily rollup table like the others:
--    deleted with the day's rows when the day is recomputed, dropped by rollup retention, and
--    deleted with the app.
-- 3. segment_command_usage and segment_element_usage are now views: the stored rows of every
--    segment, and under the noted segment the default rows of its days. Every reader (filters by
--    segment, the backlog's count) reads them as before; a filter on app, day and segment reaches
--    both parts (the planner pushes it into each arm of the UNION ALL, and through the join to the
--    default rows' primary key).
--
-- Citus: the three tables have app_id and are distributed colocated with events (DistributionPlan);
-- the views join colocated tables on app_id, so a reading of one app goes to one shard.

ALTER TABLE segment_command_usage RENAME TO segment_command_rows;
ALTER TABLE segment_element_usage RENAME TO segment_element_rows;

CREATE TABLE segment_default_days (
    app_id      integer NOT NULL,
    day         date NOT NULL,
    segment_id  integer NOT NULL,
    PRIMARY KEY (app_id, day)
);

COMMENT ON TABLE segment_default_days IS
    'per app and day, the segment whose rows are the day''s default rows: not stored in segment_command_rows and segment_element_rows, read from daily_command_usage and daily_element_usage (the views segment_command_usage and segment_element_usage)';

CREATE VIEW segment_command_usage AS
    SELECT app_id, day, segment_id, element_type_id, command_id, selections, user_days, users, people
    FROM segment_command_rows
    UNION ALL
    SELECT d.app_id, d.day, s.segment_id, d.element_type_id, d.command_id, d.selections, d.user_days, d.users, d.people
    FROM segment_default_days s
    JOIN daily_command_usage d ON d.app_id = s.app_id AND d.day = s.day;

CREATE VIEW segment_element_usage AS
    SELECT app_id, day, segment_id, element_type_id, selections, dismissals, users
    FROM segment_element_rows
    UNION ALL
    SELECT d.app_id, d.day, s.segment_id, d.element_type_id, d.selections, d.dismissals, d.users
    FROM segment_default_days s
    JOIN daily_element_usage d ON d.app_id = s.app_id AND d.day = s.day;

COMMENT ON VIEW segment_command_usage IS
    'the daily command rollups per segment: the stored rows (segment_command_rows) and, on a day of segment_default_days, the default rows under its segment';
COMMENT ON VIEW segment_element_usage IS
    'the daily element rollups per segment: the stored rows (segment_element_rows) and, on a day of segment_default_days, the default rows under its segment';
