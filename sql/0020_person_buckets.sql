-- People as the unit of evidence (DESIGN.md, "People are the unit of evidence"; issue 27): the
-- recommender's gate and stability resample people, not days, so the rollups must say how each
-- command's use splits between people, and the nightly run must still read only the new day and the
-- rollups to get it.
--
-- 1. events.person_bucket: the person's bucket (0..63, `PersonBucket` in Sources/Ranking), computed
--    at ingest from the `user` the app sent, before it is pseudonymized; for an event without a user,
--    from its event id (such an event is a person of its own). It cannot be computed later: the
--    rollup only sees user_hash, the app's keyed hash of the user, and the database-free run
--    (`recommend --manifest --events`) only sees the raw user; both must put a person in the same
--    bucket to give the same proposal on the same events. Six bits of an unkeyed hash of the id
--    tell nothing about the person (64 people in a thousand share each value; docs/privacy.md).
--    A smallint after `position` fits in the alignment padding of the row (62 bytes of data padded
--    to 64), so a stored event does not grow. Rows stored before this migration, and rows written
--    by a daemon still running the previous binary (its COPYs name their columns), keep NULL: the
--    rollup then derives the bucket from user_hash (or the event id) with the same finalizer, so
--    such a person is in one bucket all the same, only not the one their raw id gives.
--    New partitions (ensure_event_partitions, sql/0015) and the writers' events_staging are made
--    LIKE events, so they get the column without a change.
-- 2. people on the command rollups (daily, per segment, blocks): the row's selections and user-days
--    split by person bucket, in the sparse bytes of `PeopleCounts.encoded` (per bucket with use: its
--    index, then the two counts as varints; typically a few dozen bytes). The split adds over days,
--    so a block holds the sum of its days' splits and a window the sum of its parts, exactly as
--    selections and user_days do. '' is the unknown split (a window with a day of unknown split is
--    unknown as a whole, and the recommender keeps its earlier gate for it).
-- 3. Days rolled up before this migration whose events are still kept are queued, so the next
--    rollup (`menurank rollup`, which `recommend` runs first) gives them a split at once instead of
--    leaving every window unknown for its whole length; their events have no stored bucket, so the
--    fallback of point 1 buckets them (an event without a user gets exactly its ingest bucket,
--    which depends on the event id alone). Days whose partition retention dropped keep ''.
--
-- Citus: ADD COLUMN is carried to the shards; no default calls a volatile function.

ALTER TABLE events ADD COLUMN person_bucket smallint;

COMMENT ON COLUMN events.person_bucket IS
    'the person''s bucket 0..63 (PersonBucket.of(user:) of the raw user id, or of the event id without one); NULL for rows stored before sql/0020';

ALTER TABLE daily_command_usage ADD COLUMN people bytea NOT NULL DEFAULT '';
ALTER TABLE segment_command_usage ADD COLUMN people bytea NOT NULL DEFAULT '';
ALTER TABLE block_command_usage ADD COLUMN people bytea NOT NULL DEFAULT '';

COMMENT ON COLUMN daily_command_usage.people IS
    'selections and user-days split by person bucket (PeopleCounts.encoded); empty: unknown (rolled up before sql/0020)';

INSERT INTO rollup_queue (app_id, day)
SELECT DISTINCT app_id, day FROM daily_element_usage
WHERE to_regclass('events_' || to_char(day, 'YYYYMMDD')) IS NOT NULL;
