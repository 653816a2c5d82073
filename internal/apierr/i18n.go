package apierr

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"
)

// The six locales of the product. zh-CN is the default and the fallback.
const DefaultLang = "zh-CN"

// Langs lists the supported locales in a stable order.
var Langs = []string{"en-US", "es-ES", "ms-MY", "vi-VN", "zh-CN", "zh-HANT"}

// Messages maps a message key to its text per locale. Texts may carry
// {name} placeholders filled from an error's Args.
type Messages map[string]map[string]string

//go:embed locales/*.json
var localeFiles embed.FS

// catalog is read once from locales/<lang>.json, each a flat object of
// message key to text. It is never written afterwards, so reads need no lock.
var catalog = mustLoadCatalog()

func mustLoadCatalog() Messages {
	m, err := loadCatalog()
	if err != nil {
		panic("apierr: " + err.Error())
	}
	return m
}

func loadCatalog() (Messages, error) {
	m := Messages{}
	for _, lang := range Langs {
		b, err := localeFiles.ReadFile(path.Join("locales", lang+".json"))
		if err != nil {
			return nil, err
		}
		var texts map[string]string
		if err := json.Unmarshal(b, &texts); err != nil {
			return nil, fmt.Errorf("locales/%s.json: %w", lang, err)
		}
		for key, text := range texts {
			if m[key] == nil {
				m[key] = map[string]string{}
			}
			m[key][lang] = text
		}
	}
	return m, nil
}

// Catalog returns a copy of the catalogue, for tests that check it.
func Catalog() Messages {
	out := make(Messages, len(catalog))
	for k, v := range catalog {
		texts := make(map[string]string, len(v))
		for l, s := range v {
			texts[l] = s
		}
		out[k] = texts
	}
	return out
}

// Translate renders key in lang with args; a missing locale falls back to
// zh-CN, a missing key to the key itself (tests make sure neither happens).
func Translate(lang, key string, args map[string]any) string {
	texts := catalog[key]
	s, ok := texts[lang]
	if !ok {
		if s, ok = texts[DefaultLang]; !ok {
			s = key
		}
	}
	if len(args) == 0 || !strings.Contains(s, "{") {
		return s
	}
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		if v, ok := args[m[1:len(m)-1]]; ok {
			return fmt.Sprint(v)
		}
		return m
	})
}

var placeholder = regexp.MustCompile(`\{[a-zA-Z0-9_]+\}`)

// NegotiateLang picks the locale for an Accept-Language header: the first
// listed tag we support, matched by full tag, then by language and script
// or region (zh-TW, zh-HK, zh-Hant -> zh-HANT; zh -> zh-CN; en -> en-US),
// and the product's short codes (cn, en, vn, ty); otherwise zh-CN.
func NegotiateLang(header string) string {
	for _, part := range strings.Split(header, ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		if l := matchLang(strings.ToLower(strings.ReplaceAll(tag, "_", "-"))); l != "" {
			return l
		}
	}
	return DefaultLang
}

func matchLang(tag string) string {
	switch tag {
	case "":
		return ""
	case "cn", "zh-cn-ty", "ty":
		return "zh-CN"
	case "vn":
		return "vi-VN"
	}
	for _, l := range Langs {
		if strings.ToLower(l) == tag {
			return l
		}
	}
	lang, rest, _ := strings.Cut(tag, "-")
	switch lang {
	case "zh":
		if strings.Contains(rest, "hant") || strings.HasPrefix(rest, "tw") || strings.HasPrefix(rest, "hk") || strings.HasPrefix(rest, "mo") {
			return "zh-HANT"
		}
		return "zh-CN"
	case "en":
		return "en-US"
	case "es":
		return "es-ES"
	case "ms":
		return "ms-MY"
	case "vi":
		return "vi-VN"
	}
	return ""
}
