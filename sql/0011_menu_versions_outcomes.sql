-- Closing the loop (issue 8): every layout carries the menu_version that apps send back with their
-- events, and daily outcome rollups measure, per menu version, how people fare with each layout.

-- A stable version string per element type for each layout that became current. A manifest import
-- uses the menu's own `menu_version`, else the manifest's `version`; an accepted proposal uses
-- "<manifest version>+<layout_version>". A string already used by another layout of the element
-- type gets "+<layout_version>" appended, so that events from two layouts can always be told apart.
ALTER TABLE layouts ADD COLUMN menu_version text;

WITH candidates AS (
    SELECT l.app_id, l.element_type, l.layout_version, l.source,
           COALESCE(NULLIF(m.version, ''), 'v') AS base
    FROM layouts l
    LEFT JOIN manifests m ON m.app_id = l.app_id AND m.manifest_id = l.manifest_id
), named AS (
    SELECT app_id, element_type, layout_version, base,
           CASE WHEN source = 'manifest' AND base <> 'v' THEN base
                ELSE base || '+' || layout_version END AS candidate
    FROM candidates
), ranked AS (
    SELECT app_id, element_type, layout_version, base, candidate,
           row_number() OVER (PARTITION BY app_id, element_type, candidate ORDER BY layout_version) AS nth
    FROM named
)
UPDATE layouts l
SET menu_version = left(CASE WHEN r.nth = 1 THEN r.candidate ELSE r.base || '+' || r.layout_version END, 64)
FROM ranked r
WHERE l.app_id = r.app_id AND l.element_type = r.element_type AND l.layout_version = r.layout_version;

ALTER TABLE layouts ALTER COLUMN menu_version SET NOT NULL;
ALTER TABLE layouts ADD CONSTRAINT layouts_menu_version_length CHECK (length(menu_version) BETWEEN 1 AND 64);
CREATE UNIQUE INDEX layouts_menu_version ON layouts (app_id, element_type, menu_version);

-- Daily outcome rollups: per app, day, element type and menu version as the events sent it ('' when
-- they sent none; a version no layout has is kept as it is and reported as unknown, never dropped).
-- Maintained by the same queue and transaction as the usage rollups (rollup_queue, RollupStore),
-- one INSERT ... SELECT per recomputed day, so they are exact under concurrent ingestion and a
-- night's cost follows the new day.
--   opens            selections + dismissals
--   positions        the picked positions seen that day (ascending) and how many selections had
--   position_counts  each: an exact sparse histogram
--   latency_buckets  selection latency as an exact histogram over fixed log-spaced buckets (the
--   latency_counts   boundaries live in the code, `LatencyHistogram`, and are bound into the query):
--                    sparse, ascending bucket indexes and their counts. Exact and mergeable by
--                    adding counts, no extension needed, and its quantile intervals come from
--                    order statistics (see LatencyHistogram for why not t-digest).
-- Citus: the key leads with app_id; days are bound as UTC dates by the code.
CREATE TABLE daily_outcomes (
    app_id           integer NOT NULL,
    day              date NOT NULL,
    element_type_id  integer NOT NULL,
    menu_version     text NOT NULL,
    opens            bigint NOT NULL,
    dismissals       bigint NOT NULL,
    positions        integer[] NOT NULL,
    position_counts  bigint[] NOT NULL,
    latency_buckets  integer[] NOT NULL,
    latency_counts   bigint[] NOT NULL,
    PRIMARY KEY (app_id, day, element_type_id, menu_version)
);

-- Days rolled up before this migration have usage rollups but no outcome rows: queue them once, so
-- the next rollup fills them in. Only days whose events are still kept: a rollup of a day whose
-- partition retention dropped would replace its usage rollups with nothing (see sql/0007).
INSERT INTO rollup_queue (app_id, day)
SELECT DISTINCT app_id, day FROM daily_element_usage
WHERE to_regclass('events_' || to_char(day, 'YYYYMMDD')) IS NOT NULL;
