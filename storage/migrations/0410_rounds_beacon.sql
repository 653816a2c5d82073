-- Draws the operator cannot foresee (docs/ROUNDS.md "Provably fair draws").
-- beacon_round: the public beacon's round that decides the draw, fixed when
--   the round is created (the first beacon round published strictly after
--   close); 0 = no beacon configured, the draw is the seed's alone.
-- beacon_url: the beacon chain it is read from (GET beacon_url/public/N).
-- beacon_at: unix ms when that beacon round is published.
-- beacon_value: the beacon round's randomness (hex), stored with the draw.
-- bets_hash: SHA-256 of the accepted bet list, stored in the closing
--   transaction, so the round is committed to its bets before the beacon
--   value exists.
-- void_reason: why a round was voided (state 4), its bets refunded.
ALTER TABLE rounds ADD COLUMN beacon_round BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rounds ADD COLUMN beacon_url TEXT NOT NULL DEFAULT '';
ALTER TABLE rounds ADD COLUMN beacon_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rounds ADD COLUMN beacon_value TEXT NOT NULL DEFAULT '';
ALTER TABLE rounds ADD COLUMN bets_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE rounds ADD COLUMN void_reason TEXT NOT NULL DEFAULT '';
