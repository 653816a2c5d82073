// Package jsonid is an id as the web app carries it: a JSON string,
// because ids exceed JavaScript's exact integers. A JSON number is
// accepted on input. httpapi's content routes and customer service share
// it, so their frames and replies spell ids the same way.
package jsonid

import (
	"encoding/json"
	"reflect"
	"strconv"
)

// ID is a non-negative id written as a JSON string.
type ID int64

func (id ID) MarshalJSON() ([]byte, error) {
	return []byte(`"` + strconv.FormatInt(int64(id), 10) + `"`), nil
}

func (id *ID) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	if u, err := strconv.Unquote(s); err == nil {
		s = u
	}
	if s == "" {
		*id = 0
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return &json.UnmarshalTypeError{Value: "id " + string(b), Type: reflect.TypeFor[ID]()}
	}
	*id = ID(n)
	return nil
}
