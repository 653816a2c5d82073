package storage

import "encoding/json"

// Texts holds content in languages other than the default: language →
// field → text, e.g. {"en-US": {"title": "Welcome"}}. The row's own columns
// hold the default language's text and answer every language or field Texts
// leaves out. Stored as JSON in each content table's texts column.
type Texts map[string]map[string]string

// Text is field in lang, else base (the default language's text).
func (t Texts) Text(lang, field, base string) string {
	if v := t[lang][field]; v != "" {
		return v
	}
	return base
}

func (t Texts) json() string {
	if len(t) == 0 {
		return "{}"
	}
	b, _ := json.Marshal(t)
	return string(b)
}

// scanTexts decodes a texts column once the row scanned without error.
func scanTexts(err error, raw string, dst *Texts) error {
	if err != nil || raw == "" || raw == "{}" {
		return err
	}
	return json.Unmarshal([]byte(raw), dst)
}
