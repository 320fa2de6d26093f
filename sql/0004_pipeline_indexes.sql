-- Indexes for the nightly run and review.

-- `recommend` looks for a pending or rejected proposal with the same layout for the same base
-- layout before filing one, once per element type; without this it would scan every proposal.
CREATE INDEX proposals_element_type ON proposals (app_id, element_type, base_layout_version);
