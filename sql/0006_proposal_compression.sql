-- Proposals: the evidence of a proposal (a few kB of JSON, one row per element type that should
-- change, a thousand a night on a large app) is compressed with lz4 rather than the default pglz,
-- which takes about twice as long to write; reading either is cheap. Only rows written from now on
-- are affected. A server built without lz4 keeps pglz.
DO $$
BEGIN
    ALTER TABLE proposals ALTER COLUMN evidence SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'lz4 is not available; proposals.evidence stays compressed with pglz';
END $$;
