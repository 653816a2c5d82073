package httpapi

// Bank cards: a user binds cards of banks from the
// bank list (seeded by migration, edited by operators) to exchange points
// to. Binding asks for the fund password; numbers are only ever shown
// masked to users.

import (
	"encoding/json"
	"errors"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"kj/internal/apierr"
	"kj/storage"
)

// maxBankCards bounds the cards one user may bind.
const maxBankCards = 5

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
		HolderName: c.HolderName, CardNumber: maskCard(c.CardNumber), CreatedAt: c.CreatedAt}
}

// cardNumber drops the spaces and dashes people type between digit groups.
func cardNumber(v string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, strings.TrimSpace(v))
}

var cardDigits = regexp.MustCompile(`^[0-9]{12,19}$`)

// validName: 1-max characters, printable, not blank.
func validName(v string, max int) bool {
	if v == "" || utf8.RuneCountInString(v) > max || !utf8.ValidString(v) {
		return false
	}
	for _, r := range v {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

func (s *Server) setBankCard(c *Call) (any, error) {
	var req struct {
		Name              string          `json:"name"`
		Bank              json.RawMessage `json:"bank"`
		CardNumber        string          `json:"cardNumber"`
		ConfirmCardNumber string          `json:"confirmCardNumber"`
		FundPassword      string          `json:"fundPassword"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	name := strings.TrimSpace(req.Name)
	switch {
	case name == "":
		return nil, apierr.Required("name")
	case len(req.Bank) == 0 || string(req.Bank) == "null" || string(req.Bank) == `""`:
		return nil, apierr.Required("bank")
	case req.CardNumber == "":
		return nil, apierr.Required("cardNumber")
	case req.ConfirmCardNumber == "":
		return nil, apierr.Required("confirmCardNumber")
	case req.FundPassword == "":
		return nil, apierr.Required("fundPassword")
	}
	if !validName(name, 50) {
		return nil, apierr.Fail(apierr.CodeHolderNameInvalid, "card.holder.invalid")
	}
	number := cardNumber(req.CardNumber)
	if !cardDigits.MatchString(number) {
		return nil, apierr.Fail(apierr.CodeCardNumberInvalid, "card.number.invalid")
	}
	if cardNumber(req.ConfirmCardNumber) != number {
		return nil, apierr.Fail(apierr.CodeCardNumbersMismatch, "card.mismatch")
	}
	bank, err := s.bankOf(c, req.Bank)
	if err != nil {
		return nil, err
	}
	n, err := storage.CountBankCards(c.Ctx, s.DB, c.User.ID)
	if err != nil {
		return nil, err
	}
	if n >= maxBankCards {
		return nil, apierr.Fail(apierr.CodeTooManyCards, "card.too.many", "max", maxBankCards)
	}
	if err := s.verifyFundPassword(c.Ctx, c.User, req.FundPassword); err != nil {
		return nil, err
	}
	card := storage.BankCard{ID: storage.NewID(), UserID: c.User.ID, BankID: bank.ID, BankName: bank.Name, HolderName: name,
		CardNumber: number, CreatedAt: s.Clock.Now().UnixMilli()}
	var bound bool
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		var err error
		bound, err = storage.CreateBankCardUnderCap(c.Ctx, tx, card, maxBankCards)
		return err
	})
	if err == nil && !bound {
		return nil, apierr.Fail(apierr.CodeTooManyCards, "card.too.many", "max", maxBankCards)
	}
	if errors.Is(err, storage.ErrConflict) {
		return nil, apierr.Fail(apierr.CodeCardAlreadyBound, "card.already.bound")
	}
	if err != nil {
		return nil, err
	}
	return cardJSON(card), nil
}

// bankOf finds an enabled bank by id (number or digit string) or by its
// exact name.
func (s *Server) bankOf(c *Call, raw json.RawMessage) (storage.Bank, error) {
	unknown := apierr.Fail(apierr.CodeBankUnknown, "card.bank.unknown")
	var name string
	if json.Unmarshal(raw, &name) != nil {
		var id json.Number
		if json.Unmarshal(raw, &id) != nil {
			return storage.Bank{}, apierr.Fail(apierr.CodeBadRequest, "bad.field.type", "field", "bank")
		}
		name = id.String()
	}
	name = strings.TrimSpace(name)
	if id, err := strconv.ParseInt(name, 10, 64); err == nil {
		b, err := storage.BankByID(c.Ctx, s.DB, id)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && b.Enabled != 1) {
			return storage.Bank{}, unknown
		}
		return b, err
	}
	banks, err := storage.Banks(c.Ctx, s.DB, false)
	if err != nil {
		return storage.Bank{}, err
	}
	for _, b := range banks {
		if b.Name == name {
			return b, nil
		}
	}
	return storage.Bank{}, unknown
}

func (s *Server) userBankList(c *Call) (any, error) {
	cards, err := storage.BankCardsOf(c.Ctx, s.DB, c.User.ID)
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
	id, err := parseID(req.ID, "id")
	if err != nil {
		return nil, err
	}
	err = storage.DeleteBankCard(c.Ctx, s.DB, c.User.ID, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierr.NotFound()
	}
	return nil, err
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

// marketsOf are the countries whose banks come first for a language.
var marketsOf = map[string][]string{
	"zh-CN": {"CN"}, "zh-HANT": {"TW", "HK"}, "vi-VN": {"VN"}, "ms-MY": {"MY"}, "es-ES": {"ES"},
}

func (s *Server) getBankList(c *Call) (any, error) {
	banks, err := storage.Banks(c.Ctx, s.DB, false)
	if err != nil {
		return nil, err
	}
	rank := func(country string) int {
		for i, m := range marketsOf[c.Lang] {
			if m == country {
				return i
			}
		}
		return len(marketsOf[c.Lang])
	}
	sort.SliceStable(banks, func(i, j int) bool { return rank(banks[i].Country) < rank(banks[j].Country) })
	return map[string]any{"list": contentMap(banks, toBankJSON)}, nil
}

func (s *Server) adminBankList(c *Call) (any, error) {
	banks, err := storage.Banks(c.Ctx, s.DB, true)
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": contentMap(banks, toBankJSON)}, nil
}

type bankRequest struct {
	ID      json.RawMessage `json:"id"`
	Name    string          `json:"name"`
	Country string          `json:"country"`
	Sort    int             `json:"sort"`
	Enabled *int            `json:"enabled"`
}

var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

// bank validates an operator's bank fields.
func (r bankRequest) bank() (storage.Bank, error) {
	b := storage.Bank{Name: strings.TrimSpace(r.Name), Country: strings.ToUpper(strings.TrimSpace(r.Country)), Sort: r.Sort, Enabled: 1}
	switch {
	case b.Name == "":
		return b, apierr.Required("name")
	case !validName(b.Name, 100):
		return b, apierr.Invalid("name")
	case b.Country == "":
		return b, apierr.Required("country")
	case !countryCode.MatchString(b.Country):
		return b, apierr.Invalid("country")
	case r.Sort < 0 || r.Sort > 1_000_000:
		return b, apierr.Invalid("sort")
	}
	if r.Enabled != nil {
		if *r.Enabled != 0 && *r.Enabled != 1 {
			return b, apierr.Invalid("enabled")
		}
		b.Enabled = *r.Enabled
	}
	return b, nil
}

func (s *Server) adminBankAdd(c *Call) (any, error) {
	var req bankRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	b, err := req.bank()
	if err != nil {
		return nil, err
	}
	b.ID = storage.NewID()
	b.CreatedAt = s.Clock.Now().UnixMilli()
	b.UpdatedAt = b.CreatedAt
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		if err := storage.CreateBank(c.Ctx, tx, b); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "bank.add", b.ID, auditChange{After: toBankJSON(b)})
	})
	if errors.Is(err, storage.ErrConflict) {
		return nil, apierr.Fail(apierr.CodeBankNameTaken, "bank.name.taken")
	}
	if err != nil {
		return nil, err
	}
	return toBankJSON(b), nil
}

func (s *Server) adminBankUpdate(c *Call) (any, error) {
	var req bankRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	id, err := parseID(req.ID, "id")
	if err != nil {
		return nil, err
	}
	b, err := req.bank()
	if err != nil {
		return nil, err
	}
	prev, err := storage.BankByID(c.Ctx, s.DB, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierr.NotFound()
	}
	if err != nil {
		return nil, err
	}
	if req.Enabled == nil {
		b.Enabled = prev.Enabled
	}
	b.ID = id
	b.UpdatedAt = s.Clock.Now().UnixMilli()
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		if err := storage.UpdateBank(c.Ctx, tx, b); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "bank.update", b.ID, auditChange{Before: toBankJSON(prev), After: toBankJSON(b)})
	})
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return nil, apierr.NotFound()
	case errors.Is(err, storage.ErrConflict):
		return nil, apierr.Fail(apierr.CodeBankNameTaken, "bank.name.taken")
	case err != nil:
		return nil, err
	}
	return toBankJSON(b), nil
}
