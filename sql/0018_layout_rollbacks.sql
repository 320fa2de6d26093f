-- Rollbacks (issue 28): `menurank layouts rollback ELEMENT_TYPE --note WHY` (and the review page's
-- button, POST /v1/admin/layouts/rollback) serves the layout from before the element type's last
-- accepted proposal again, as a new layout version with its own menu_version (so outcomes tell the
-- versions apart), with source 'rollback'. Who did it and why is kept beside it.
--
--   layout_version     the version the rollback appended (the current layout once it is done)
--   restored_version   the version whose layout it serves again (the one before the last accept)
--   replaced_version   the version that was current when it ran (the last accept's, or later)
--   proposal_id        the accepted proposal whose layout it took back
ALTER TABLE layouts DROP CONSTRAINT layouts_source_check;
ALTER TABLE layouts ADD CONSTRAINT layouts_source_check CHECK (source IN ('manifest', 'proposal', 'rollback'));

CREATE TABLE layout_rollbacks (
    app_id            integer NOT NULL REFERENCES apps (app_id),
    element_type      text NOT NULL,
    layout_version    integer NOT NULL,
    restored_version  integer NOT NULL,
    replaced_version  integer NOT NULL,
    proposal_id       bigint,
    decided_by        text NOT NULL CHECK (length(decided_by) BETWEEN 1 AND 200),
    note              text NOT NULL CHECK (length(note) BETWEEN 1 AND 2000),
    created_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_id, element_type, layout_version)
);
