-- The stability each step of a proposal's ladder recorded, beside its evidence (issue 27). A night
-- that proposes what is already on file keeps the stability recorded then instead of resampling
-- people again (ProposalStore.lookUp), and reading it out of the evidence decompressed each match's
-- evidence (a few kB of lz4-compressed JSON) and walked its ladder: about 30 ms of the 45 ms the
-- lookup took at a thousand matches, with nothing else for the night to do meanwhile.
--
-- `step=stability` pairs in ladder order, comma-separated ('' when the ladder records none), computed
-- from the evidence in the statement that files the proposal, so the two never disagree (evidence is
-- never updated). NULL for proposals filed before this column: the lookup reads those from the
-- evidence as before, so no backfill is needed.
ALTER TABLE proposals ADD COLUMN ladder_stabilities text;

COMMENT ON COLUMN proposals.ladder_stabilities IS
    'step=stability pairs of the evidence''s ladder, in order, comma-separated ('''' for none); NULL: filed before sql/0025, read from evidence';
