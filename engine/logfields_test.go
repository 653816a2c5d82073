package engine

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLogFieldsAreBounded(t *testing.T) {
	var b strings.Builder
	log := NewLogger(&b, "info")
	huge := strings.Repeat("é", 250<<10) // 500 KB, two bytes a character
	log.Info("signed in", "operationID", huge, "err", errors.New(huge), "userId", 7)
	line := b.String()
	if len(line) > 4*MaxLogField+200 {
		t.Fatalf("a 500 KB field made a %d-byte log line", len(line))
	}
	if !utf8.ValidString(line) || !strings.Contains(line, "(512000 bytes)") || !strings.Contains(line, "userId=7") {
		t.Fatalf("bounded line: %q", line)
	}
}
