package seed

import (
	"bytes"
	_ "embed"
	"encoding/json"

	"kj/storage"
)

// The demo content's words in the six languages. zh-CN, the default
// language, goes into the plain columns; the others into texts, so every
// user sees one language, theirs.

// said is one text in every language, keyed like Accept-Language.
type said map[string]string

const defaultLang = "zh-CN"

// otherLanguages are the languages beside the default one, in a fixed order.
var otherLanguages = []string{"zh-HANT", "en-US", "es-ES", "ms-MY", "vi-VN"}

// textsOf builds the texts column of fields (field name → its words).
func textsOf(fields map[string]said) storage.Texts {
	out := storage.Texts{}
	for _, lang := range otherLanguages {
		for field, words := range fields {
			if v := words[lang]; v != "" {
				if out[lang] == nil {
					out[lang] = map[string]string{}
				}
				out[lang][field] = v
			}
		}
	}
	return out
}

// demoTextsJSON is texts.json: every demo text in the six languages, kept
// as data beside the code like the web app's locales.
//
//go:embed texts.json
var demoTextsJSON []byte

// demoTexts are the words of the demo content; videoTitles is per scene,
// intros go with demoListings in the same order.
var demoTexts = func() (t struct {
	BannerTitles []said `json:"bannerTitles"`
	VideoTitles  []struct {
		Discover   said `json:"discover"`
		Highlights said `json:"highlights"`
	} `json:"videoTitles"`
	CityNames []said `json:"cityNames"`
	Intros    []said `json:"intros"`
	Notices   []struct {
		Title   said `json:"title"`
		Content said `json:"content"`
	} `json:"notices"`
	// ServiceWelcome opens the customer-service chat.
	ServiceWelcome said `json:"serviceWelcome"`
}) {
	dec := json.NewDecoder(bytes.NewReader(demoTextsJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		panic("seed: texts.json: " + err.Error())
	}
	return t
}()

func demoWelcomeTexts() map[string]string {
	out := map[string]string{}
	for _, lang := range otherLanguages {
		out[lang] = demoTexts.ServiceWelcome[lang]
	}
	return out
}
