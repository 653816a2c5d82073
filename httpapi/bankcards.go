package httpapi

// Bank cards and the bank list: the routes and how they show cards (masked
// to users) and banks. Binding, its limits and the list's rules are
// kj/wallet's.

import (
	"context"
	"encoding/json"
	"strconv"

	"kj/storage"
	"kj/wallet"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/user/setBankCard", User, s.setBankCard)
		s.Post("/user/userBankList", User, s.userBankList)
		s.Post("/user/userDelBank", User, s.userDelBank)
		s.Post("/user/getBankList", User, s.getBankList)
		s.Post("/admin/bank/list", Operator, s.adminBankList)
		s.Post("/admin/bank/add", Operator, s.adminBankAdd)
		s.Post("/admin/bank/update", Operator, s.adminBankUpdate)
	})
}

type bankCardJSON struct {
	ID         string `json:"id"`
	BankID     string `json:"bankId"`
	BankName   string `json:"bankName"`
	HolderName string `json:"holderName"`
	CardNumber string `json:"cardNumber"` // masked: ************1234
	CreatedAt  int64  `json:"createdAt"`
}

func cardJSON(c storage.BankCard) bankCardJSON {
	return bankCardJSON{ID: strconv.FormatInt(c.ID, 10), BankID: strconv.FormatInt(c.BankID, 10), BankName: c.BankName,
		HolderName: c.HolderName, CardNumber: wallet.MaskCard(c.CardNumber), CreatedAt: c.CreatedAt}
}

func (s *Server) setBankCard(c *Call) (any, error) {
	var req wallet.CardRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	card, err := s.Wallet.BindCard(c.Ctx, c.User, req)
	if err != nil {
		return nil, err
	}
	return cardJSON(card), nil
}

func (s *Server) userBankList(c *Call) (any, error) {
	cards, err := s.Wallet.Cards(c.Ctx, c.User.ID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": contentMap(cards, cardJSON)}, nil
}

func (s *Server) userDelBank(c *Call) (any, error) {
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	id, err := wallet.ParseID(req.ID, "id")
	if err != nil {
		return nil, err
	}
	return nil, s.Wallet.DeleteCard(c.Ctx, c.User.ID, id)
}

type bankJSON struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Country string `json:"country"`
	Sort    int    `json:"sort"`
	Enabled int    `json:"enabled"`
}

func toBankJSON(b storage.Bank) bankJSON {
	return bankJSON{ID: strconv.FormatInt(b.ID, 10), Name: b.Name, Country: b.Country, Sort: b.Sort, Enabled: b.Enabled}
}

// bankList shows a list of banks.
func bankList(banks []storage.Bank, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": contentMap(banks, toBankJSON)}, nil
}

func (s *Server) getBankList(c *Call) (any, error) {
	return bankList(s.Wallet.Banks(c.Ctx, c.Lang))
}

func (s *Server) adminBankList(c *Call) (any, error) {
	return bankList(s.Wallet.AllBanks(c.Ctx))
}

func (s *Server) adminBankAdd(c *Call) (any, error) {
	return s.bankEdit(c, (*wallet.Wallet).AddBank)
}

func (s *Server) adminBankUpdate(c *Call) (any, error) {
	return s.bankEdit(c, (*wallet.Wallet).UpdateBank)
}

// bankEdit is an operator's addition or update of a bank of the list.
func (s *Server) bankEdit(c *Call, edit func(*wallet.Wallet, context.Context, wallet.Operator, wallet.BankRequest) (storage.Bank, error)) (any, error) {
	var req wallet.BankRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	b, err := edit(s.Wallet, c.Ctx, operator(c), req)
	if err != nil {
		return nil, err
	}
	return toBankJSON(b), nil
}
