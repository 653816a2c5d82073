-- Settlement changes a bet's state, payout and settled_at. With state in
-- round_bets_round every settled bet was a new row version plus an entry
-- in each of the table's indexes; without it (and with room on the page,
-- see the PostgreSQL variant) the update stays on its page and touches no
-- index (HOT). The settlement's pick of a round's open bets, in id order,
-- reads the round's range and skips the settled ones.
DROP INDEX round_bets_round;
CREATE INDEX round_bets_round ON round_bets (round_id, id);
