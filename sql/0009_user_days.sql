-- User-days (DESIGN.md, "How use is measured"): for each day, the distinct people who picked a
-- command that day. The daily rollup counts them exactly when it recomputes a day (the day's
-- distinct people of each command), so a window's user-days are a sum of daily rows, and the block
-- rollups (sql/0005) carry the sums of their days, so reading a window stays a handful of rows.
--
-- A person is the event's user_hash; an event without a user counts as one person of its own,
-- named by its event id (the first 64 bits of the uuid). The same person key feeds the `users`
-- sketches from now on, so reach and user-days count people the same way:
--     COALESCE(user_hash, ('x' || translate(left(event_id::text, 18), '-', ''))::bit(64)::bigint)
ALTER TABLE daily_command_usage ADD COLUMN user_days bigint NOT NULL DEFAULT 0;
ALTER TABLE block_command_usage ADD COLUMN user_days bigint NOT NULL DEFAULT 0;

-- Days rolled up before this migration whose events are still kept: user-days and sketches
-- recomputed from the events, as the rollup now does.
UPDATE daily_command_usage d
SET user_days = e.user_days, users = e.users
FROM (
    SELECT app_id, day, element_type_id, command_id, count(DISTINCT person) AS user_days,
           hll_add_agg(hll_hash_bigint(person)) AS users
    FROM (SELECT app_id, day, element_type_id, command_id,
                 COALESCE(user_hash, ('x' || translate(left(event_id::text, 18), '-', ''))::bit(64)::bigint) AS person
          FROM events WHERE command_id IS NOT NULL) AS p
    GROUP BY app_id, day, element_type_id, command_id
) AS e
WHERE d.app_id = e.app_id AND d.day = e.day AND d.element_type_id = e.element_type_id
  AND d.command_id = e.command_id;

UPDATE daily_element_usage d
SET users = e.users
FROM (
    SELECT app_id, day, element_type_id, hll_add_agg(hll_hash_bigint(
               COALESCE(user_hash, ('x' || translate(left(event_id::text, 18), '-', ''))::bit(64)::bigint))) AS users
    FROM events
    GROUP BY app_id, day, element_type_id
) AS e
WHERE d.app_id = e.app_id AND d.day = e.day AND d.element_type_id = e.element_type_id;

-- Days whose events are gone (retention): the day's sketch of identified people, which counts a
-- day's few people exactly (the sketch is an explicit list while it is small); at least one.
UPDATE daily_command_usage
SET user_days = LEAST(selections, GREATEST(1, round(hll_cardinality(users))))::bigint
WHERE user_days = 0 AND selections > 0;

-- The stored blocks predate user-days: dropped, so readers use the daily rows until the next
-- rollup computes them again (a missing block costs speed, never correctness).
DELETE FROM rollup_blocks;
DELETE FROM block_command_usage;
DELETE FROM block_element_usage;
