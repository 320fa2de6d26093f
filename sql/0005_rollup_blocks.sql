-- Block rollups: the daily rollups summed over aligned blocks of days, so that a window's counts
-- and distinct users are read from a few rows per command instead of one per day.
--
-- A block of level L (1 to 4) covers the 2^L days [block * 2^L, (block + 1) * 2^L - 1], days counted
-- from 1970-01-01 (UTC days, as `day - DATE '1970-01-01'`): level 1 = aligned pairs of days, 2 =
-- fours, 3 = eights, 4 = sixteens. A 28-day window is then at most a handful of blocks plus a few
-- single days, and its distinct users the union of that many hll sketches (the union of sketches is
-- the sketch of the union, so the counts are exactly those the daily rows give).
--
-- The rollup maintains them in the transaction that recomputes the days: a recomputed day deletes
-- the blocks that hold it, and every block that has ended (its last day before the rollup's
-- today) and is not stored is recomputed from its two halves (the blocks or days one level down).
-- `rollup_blocks` lists the blocks that are stored and current; a reader uses only those and
-- reads the days of any other block from the daily rows, so a missing block costs speed, never
-- correctness.
--
-- Citus: every key leads with app_id; days are integers computed in UTC by the code.

CREATE TABLE rollup_blocks (
    app_id          integer NOT NULL,
    level           smallint NOT NULL CHECK (level BETWEEN 1 AND 4),
    block           integer NOT NULL,
    PRIMARY KEY (app_id, level, block)
);

CREATE TABLE block_command_usage (
    app_id          integer NOT NULL,
    level           smallint NOT NULL,
    block           integer NOT NULL,
    element_type_id integer NOT NULL,
    command_id      integer NOT NULL,
    selections      bigint NOT NULL,
    users           hll NOT NULL,
    PRIMARY KEY (app_id, level, block, element_type_id, command_id)
);

CREATE TABLE block_element_usage (
    app_id          integer NOT NULL,
    level           smallint NOT NULL,
    block           integer NOT NULL,
    element_type_id integer NOT NULL,
    selections      bigint NOT NULL,
    dismissals      bigint NOT NULL,
    users           hll NOT NULL,
    PRIMARY KEY (app_id, level, block, element_type_id)
);

-- Two aggregates over sketches built from the extension's own functions. Both declare the real
-- size of their state (SSPACE, what the extension declares for hll_add_agg but not for
-- hll_union_agg), so the planner sorts rather than picking a hash aggregate that spills to disk.
--   rollup_union(users): hll_union_agg(users), for writing block rows.
--   rollup_union_cardinality(users): hll_cardinality(hll_union_agg(users)), the same number,
--     without packing the union into an hll value only to unpack it again (a quarter of the time
--     of reading a window's users).
CREATE AGGREGATE rollup_union(hll) (
    SFUNC = hll_union_trans,
    STYPE = internal,
    FINALFUNC = hll_pack,
    SSPACE = 131120
);

CREATE AGGREGATE rollup_union_cardinality(hll) (
    SFUNC = hll_union_trans,
    STYPE = internal,
    FINALFUNC = hll_card_unpacked,
    SSPACE = 131120
);
