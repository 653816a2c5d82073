-- Settlement changes a bet's state, payout and settled_at. With state in
-- round_bets_round every settled bet was a new row version plus an entry
-- in each of the table's indexes; without it the update can stay on its
-- page and touch no index (HOT), if the page has room for the new version.
-- A settlement transaction changes every bet of the pages it covers at
-- once (the bets of a page are consecutive ids), so a page keeps half its
-- space free: new pages are filled to 50 %. The settlement's pick of a
-- round's open bets, in id order, reads the round's range and skips the
-- settled ones.
DROP INDEX round_bets_round;
CREATE INDEX round_bets_round ON round_bets (round_id, id);
ALTER TABLE round_bets SET (fillfactor = 50);
