-- The partition day of an event is the UTC day of the client's own event time, not of the
-- skew-corrected time that the `time` column holds (sql/0001's comment said otherwise): a retried
-- event keeps its client time, while the correction is measured again on every attempt, so only
-- the client's day keeps the dedupe key (app_id, event_id, day) stable across retries. A client
-- whose clock is off by more than about a day gets the corrected day instead.
COMMENT ON COLUMN events.day IS
    'UTC day of the client''s own event time (of the corrected time when the client clock is off by more than a day); partition key, part of the dedupe key';
COMMENT ON COLUMN events.time IS 'event time corrected for the client''s clock skew';
