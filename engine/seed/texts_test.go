package seed

import "testing"

// Every demo text in texts.json is there in all six languages, and there
// are as many as the content that uses them: a language left out would
// show a user the default language's words instead of theirs.
func TestDemoTextsHaveEveryLanguage(t *testing.T) {
	langs := append([]string{defaultLang}, otherLanguages...)
	check := func(what string, words said) {
		t.Helper()
		for _, lang := range langs {
			if words[lang] == "" {
				t.Errorf("%s has no %s text: %v", what, lang, words)
			}
		}
		if len(words) != len(langs) {
			t.Errorf("%s has %d languages, want %d: %v", what, len(words), len(langs), words)
		}
	}
	for _, w := range demoTexts.BannerTitles {
		check("a banner title", w)
	}
	for _, s := range demoTexts.VideoTitles {
		check("a discover video title", s.Discover)
		check("a highlights video title", s.Highlights)
	}
	for _, w := range demoTexts.CityNames {
		check("a city name", w)
	}
	for _, w := range demoTexts.Intros {
		check("an intro", w)
	}
	for _, n := range demoTexts.Notices {
		check("a notice title", n.Title)
		check("a notice content", n.Content)
	}
	check("the service welcome", demoTexts.ServiceWelcome)
	if len(demoTexts.BannerTitles) != 3 || len(demoTexts.VideoTitles) != len(demoScenes) || len(demoTexts.CityNames) != 4 ||
		len(demoTexts.Intros) != len(demoListings) || len(demoTexts.Notices) != 3 {
		t.Errorf("texts for %d banners, %d scenes, %d cities, %d listings, %d notices; want 3, %d, 4, %d, 3",
			len(demoTexts.BannerTitles), len(demoTexts.VideoTitles), len(demoTexts.CityNames), len(demoTexts.Intros),
			len(demoTexts.Notices), len(demoScenes), len(demoListings))
	}
}
