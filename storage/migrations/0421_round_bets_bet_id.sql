-- A bet id names one bet: the desk writes a bet together with its stake,
-- whose ledger key (bet:<betId>:stake) the unique index on
-- ledger_transfers.idempotency_key already keeps to one transfer, with the
-- bet's row id as its ref. round_bets_bet_id kept the same rule a second
-- time, at the price of a unique text index entry per bet; a bet is now
-- found by its bet id through its stake (storage.BetsByBetIDs).
DROP INDEX round_bets_bet_id;
