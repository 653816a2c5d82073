// Package names holds the rules every name shown to other users follows
// (nicknames, group and channel names): no character that hides itself or
// reorders the text around it, so a name cannot pass for another
// ("\u202Enimda" shows as "admin" reversed; a zero-width space makes a
// look-alike of any name).
package names

import "unicode"

// Hidden reports whether s holds a format character (Unicode category Cf:
// the bidirectional overrides, embeddings and isolates, the zero-width
// space, joiners and non-joiners, the byte-order mark, the soft hyphen...)
// or a control character.
func Hidden(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Cf, r) || unicode.IsControl(r) {
			return true
		}
	}
	return false
}
