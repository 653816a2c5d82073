package wallet

// How the wallet reads amounts and ids from a request, and writes them in
// messages.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"kj/internal/apierr"
	"kj/storage"
)

// ParseAmount reads an amount in cents from its raw JSON: a positive whole
// number. Strings and other types are a type error; a fraction, an
// exponent, a sign, zero, or more than the ledger takes are refused with
// their own message.
func ParseAmount(raw json.RawMessage, field string) (int64, error) {
	v := strings.TrimSpace(string(raw))
	if v == "" || v == "null" {
		return 0, apierr.Required(field)
	}
	if c := v[0]; c != '-' && (c < '0' || c > '9') {
		return 0, apierr.Fail(apierr.CodeBadRequest, "bad.field.type", "field", field)
	}
	if v[0] == '-' || strings.ContainsAny(v, ".eE") {
		return 0, apierr.Fail(apierr.CodeAmountInvalid, "wallet.amount.invalid", "field", field)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, apierr.Fail(apierr.CodeAmountTooLarge, "wallet.amount.too.large", "field", field)
		}
		return 0, apierr.Fail(apierr.CodeBadRequest, "bad.field.type", "field", field)
	}
	if n == 0 {
		return 0, apierr.Fail(apierr.CodeAmountInvalid, "wallet.amount.invalid", "field", field)
	}
	if n > storage.MaxAmount {
		return 0, apierr.Fail(apierr.CodeAmountTooLarge, "wallet.amount.too.large", "field", field)
	}
	return n, nil
}

// ParseID reads an id given as a JSON number or a string of digits (ids
// pass 2^53, so the API writes them as strings).
func ParseID(raw json.RawMessage, field string) (int64, error) {
	v := strings.TrimSpace(string(raw))
	if v == "" || v == "null" || v == `""` {
		return 0, apierr.Required(field)
	}
	v = strings.Trim(v, `"`)
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, apierr.Invalid(field)
	}
	return n, nil
}

// FormatCents writes cents as points with two decimals, for messages.
func FormatCents(n int64) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	return fmt.Sprintf("%s%d.%02d", sign, n/100, n%100)
}

// MaskCard shows the last four digits of a card number.
func MaskCard(n string) string {
	if len(n) <= 4 {
		return n
	}
	return strings.Repeat("*", len(n)-4) + n[len(n)-4:]
}
