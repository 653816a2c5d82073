package wallet

// Bank cards: a user binds cards of banks from the bank list (seeded by
// migration, edited by operators) to exchange points to. Binding asks for
// the fund password; numbers are only ever shown masked to users.

import (
	"context"
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

// MaxBankCards bounds the cards one user may bind.
const MaxBankCards = 5

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

// CardRequest is a user's binding of a bank card as the client sends it.
type CardRequest struct {
	Name              string          `json:"name"` // the holder's
	Bank              json.RawMessage `json:"bank"` // an enabled bank's id (number or digits) or exact name
	CardNumber        string          `json:"cardNumber"`
	ConfirmCardNumber string          `json:"confirmCardNumber"`
	FundPassword      string          `json:"fundPassword"`
}

// BindCard binds a card to u, up to MaxBankCards, once per number.
func (w *Wallet) BindCard(ctx context.Context, u storage.User, req CardRequest) (storage.BankCard, error) {
	var none storage.BankCard
	name := strings.TrimSpace(req.Name)
	switch {
	case name == "":
		return none, apierr.Required("name")
	case len(req.Bank) == 0 || string(req.Bank) == "null" || string(req.Bank) == `""`:
		return none, apierr.Required("bank")
	case req.CardNumber == "":
		return none, apierr.Required("cardNumber")
	case req.ConfirmCardNumber == "":
		return none, apierr.Required("confirmCardNumber")
	case req.FundPassword == "":
		return none, apierr.Required("fundPassword")
	}
	if !validName(name, 50) {
		return none, apierr.Fail(apierr.CodeHolderNameInvalid, "card.holder.invalid")
	}
	number := cardNumber(req.CardNumber)
	if !cardDigits.MatchString(number) {
		return none, apierr.Fail(apierr.CodeCardNumberInvalid, "card.number.invalid")
	}
	if cardNumber(req.ConfirmCardNumber) != number {
		return none, apierr.Fail(apierr.CodeCardNumbersMismatch, "card.mismatch")
	}
	bank, err := w.bankOf(ctx, req.Bank)
	if err != nil {
		return none, err
	}
	n, err := storage.CountBankCards(ctx, w.DB, u.ID)
	if err != nil {
		return none, err
	}
	tooMany := apierr.Fail(apierr.CodeTooManyCards, "card.too.many", "max", MaxBankCards)
	if n >= MaxBankCards {
		return none, tooMany
	}
	if err := w.VerifyFundPassword(ctx, u, req.FundPassword); err != nil {
		return none, err
	}
	card := storage.BankCard{ID: storage.NewID(), UserID: u.ID, BankID: bank.ID, BankName: bank.Name, HolderName: name,
		CardNumber: number, CreatedAt: w.now()}
	var bound bool
	err = w.DB.Tx(ctx, func(tx storage.Tx) error {
		var err error
		bound, err = storage.CreateBankCardUnderCap(ctx, tx, card, MaxBankCards)
		return err
	})
	if err == nil && !bound {
		return none, tooMany
	}
	if errors.Is(err, storage.ErrConflict) {
		return none, apierr.Fail(apierr.CodeCardAlreadyBound, "card.already.bound")
	}
	if err != nil {
		return none, err
	}
	return card, nil
}

// bankOf finds an enabled bank by id (number or digit string) or by its
// exact name.
func (w *Wallet) bankOf(ctx context.Context, raw json.RawMessage) (storage.Bank, error) {
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
		b, err := storage.BankByID(ctx, w.DB, id)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && b.Enabled != 1) {
			return storage.Bank{}, unknown
		}
		return b, err
	}
	banks, err := storage.Banks(ctx, w.DB, false)
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

// Cards lists the user's bound cards.
func (w *Wallet) Cards(ctx context.Context, userID int64) ([]storage.BankCard, error) {
	return storage.BankCardsOf(ctx, w.DB, userID)
}

// DeleteCard unbinds one of the user's cards; someone else's is not found.
func (w *Wallet) DeleteCard(ctx context.Context, userID, cardID int64) error {
	return notFound(storage.DeleteBankCard(ctx, w.DB, userID, cardID))
}

// marketsOf are the countries whose banks come first for a language.
var marketsOf = map[string][]string{
	"zh-CN": {"CN"}, "zh-HANT": {"TW", "HK"}, "vi-VN": {"VN"}, "ms-MY": {"MY"}, "es-ES": {"ES"},
}

// Banks lists the enabled banks a card may be bound to, the banks of the
// language's markets first.
func (w *Wallet) Banks(ctx context.Context, lang string) ([]storage.Bank, error) {
	banks, err := storage.Banks(ctx, w.DB, false)
	if err != nil {
		return nil, err
	}
	rank := func(country string) int {
		for i, m := range marketsOf[lang] {
			if m == country {
				return i
			}
		}
		return len(marketsOf[lang])
	}
	sort.SliceStable(banks, func(i, j int) bool { return rank(banks[i].Country) < rank(banks[j].Country) })
	return banks, nil
}

// AllBanks lists every bank, disabled ones too, for operators.
func (w *Wallet) AllBanks(ctx context.Context) ([]storage.Bank, error) {
	return storage.Banks(ctx, w.DB, true)
}

// BankRequest is an operator's bank as the client sends it.
type BankRequest struct {
	ID      json.RawMessage `json:"id"` // updates only
	Name    string          `json:"name"`
	Country string          `json:"country"` // ISO 3166-1 alpha-2, any case
	Sort    int             `json:"sort"`
	Enabled *int            `json:"enabled"` // absent: 1 for an addition, unchanged for an update
}

var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

// bank validates an operator's bank fields.
func (r BankRequest) bank() (storage.Bank, error) {
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

// bankNameTaken answers a second bank of one name.
func bankNameTaken(err error) error {
	if errors.Is(err, storage.ErrConflict) {
		return apierr.Fail(apierr.CodeBankNameTaken, "bank.name.taken")
	}
	return err
}

// AddBank adds a bank to the list, audited.
func (w *Wallet) AddBank(ctx context.Context, op Operator, req BankRequest) (storage.Bank, error) {
	b, err := req.bank()
	if err != nil {
		return storage.Bank{}, err
	}
	b.ID = storage.NewID()
	b.CreatedAt = w.now()
	b.UpdatedAt = b.CreatedAt
	err = w.DB.Tx(ctx, func(tx storage.Tx) error {
		if err := storage.CreateBank(ctx, tx, b); err != nil {
			return err
		}
		return op.Audit.BankChanged(ctx, tx, "bank.add", nil, b)
	})
	if err != nil {
		return storage.Bank{}, bankNameTaken(err)
	}
	return b, nil
}

// UpdateBank changes a bank of the list, audited with its values before.
func (w *Wallet) UpdateBank(ctx context.Context, op Operator, req BankRequest) (storage.Bank, error) {
	id, err := ParseID(req.ID, "id")
	if err != nil {
		return storage.Bank{}, err
	}
	b, err := req.bank()
	if err != nil {
		return storage.Bank{}, err
	}
	prev, err := storage.BankByID(ctx, w.DB, id)
	if err != nil {
		return storage.Bank{}, notFound(err)
	}
	if req.Enabled == nil {
		b.Enabled = prev.Enabled
	}
	b.ID = id
	b.UpdatedAt = w.now()
	err = w.DB.Tx(ctx, func(tx storage.Tx) error {
		if err := storage.UpdateBank(ctx, tx, b); err != nil {
			return err
		}
		return op.Audit.BankChanged(ctx, tx, "bank.update", &prev, b)
	})
	if err != nil {
		return storage.Bank{}, notFound(bankNameTaken(err))
	}
	return b, nil
}
