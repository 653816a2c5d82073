package names

import "testing"

func TestHidden(t *testing.T) {
	for _, s := range []string{"\u202Enimda", "ad\u200Bmin", "a\u200Db", "\uFEFFbob", "x\u2066y\u2069", "a\u200Eb", "tab\tname", "soft\u00ADhyphen"} {
		if !Hidden(s) {
			t.Errorf("%q passed", s)
		}
	}
	for _, s := range []string{"alice", "小明", "José", "Nguyễn", "🙂 smile", "مرحبا", "a b"} {
		if Hidden(s) {
			t.Errorf("%q refused", s)
		}
	}
}
