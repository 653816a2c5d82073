package httpapi

// What players read of themselves on every screen — the wallet summary
// (/user/amount, /user/getUserAmount), the profile with its facts
// (/user/mine, /user/index) and the operators count of /getBaseData — is
// answered from the node's copies (storage/userview), which every commit
// that changes them drops: at once on this node, over the bus on the
// others, and in any case within userview.MaxAge.

import (
	"context"

	"kj/internal/clock"
	"kj/storage/userview"
)

// userViews is the node's copies (a name of this package, so server.go
// holds the field without the import).
type userViews = userview.Views

func init() {
	registerArea(func(s *Server) {
		c := s.Clock
		if c == nil {
			c = clock.Real{}
		}
		s.reads = userview.New(s.DB, s.Bus, c)
		if s.Wallet != nil {
			s.Wallet.Reads = s.reads
		}
		s.lobbyBalancesFromViews()
	})
}

// lobbyBalancesFromViews has the lobby show the player's balance beside
// the rounds from the same copies, so /activation/lotteryList asks the
// store nothing once warm either.
func (s *Server) lobbyBalancesFromViews() {
	if s.Rounds != nil && s.Rounds.Balances == nil {
		s.Rounds.Balances = viewBalances{s.reads}
	}
}

// viewBalances answers the lobby's balance from the wallet summaries.
type viewBalances struct{ v *userViews }

func (b viewBalances) Balance(ctx context.Context, userID int64) (int64, error) {
	w, err := b.v.Wallet(ctx, userID)
	return w.Balance, err
}

// StopReads stops the copies' background check (userview.Views.Close);
// the node then reads the store.
func (s *Server) StopReads() {
	if s.reads != nil {
		s.reads.Close()
	}
}
