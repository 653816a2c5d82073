package storage

import "testing"

func TestRewritePlaceholders(t *testing.T) {
	cases := map[string]string{
		"SELECT 1":                      "SELECT 1",
		"WHERE a = $1 AND b = $12":      "WHERE a = ?1 AND b = ?12",
		"WHERE a = '$1' AND b = $2":     "WHERE a = '$1' AND b = ?2",
		`SELECT "$1" FROM t WHERE x=$1`: `SELECT "$1" FROM t WHERE x=?1`,
		"SELECT 'it''s $3', $4":         "SELECT 'it''s $3', ?4",
		"SELECT $ FROM t":               "SELECT $ FROM t",
	}
	for in, want := range cases {
		if got := rewrite(in); got != want {
			t.Errorf("rewrite(%q) = %q, want %q", in, got, want)
		}
	}
}
