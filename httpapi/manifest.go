package httpapi

import (
	"cmp"
	"encoding/json"
	"errors"
	"net/http"

	"kj/storage"
)

// The web app manifest (/manifest.webmanifest): what a browser needs to
// install the app on the home screen. It is served by the server, not
// shipped as a file, because its name is the operator's: the domain's entry
// for the request's host, else the operator's settings, else KJ_APP_NAME —
// the name /getDomainInfo answers.

type manifestIcon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose,omitempty"`
}

type webManifest struct {
	ID              string         `json:"id"`
	Name            string         `json:"name"`
	ShortName       string         `json:"short_name"`
	StartURL        string         `json:"start_url"`
	Scope           string         `json:"scope"`
	Display         string         `json:"display"`
	Orientation     string         `json:"orientation"`
	ThemeColor      string         `json:"theme_color"`
	BackgroundColor string         `json:"background_color"`
	Icons           []manifestIcon `json:"icons"`
}

// The app's brand colours (webapp/src/app/tokens.css: --color-primary and
// --color-bg).
const (
	manifestTheme      = "#315aff"
	manifestBackground = "#f5f6f8"
)

// Manifest serves the web app manifest.
func (s *Server) Manifest(w http.ResponseWriter, r *http.Request) {
	name, err := s.installName(r)
	if err != nil {
		s.Log.Error("manifest", "err", err)
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
		return
	}
	short := name
	if r := []rune(short); len(r) > 12 {
		short = string(r[:12])
	}
	m := webManifest{ID: "/", Name: name, ShortName: short, StartURL: "/", Scope: "/", Display: "standalone",
		Orientation: "portrait", ThemeColor: manifestTheme, BackgroundColor: manifestBackground,
		Icons: []manifestIcon{
			{Src: "/icons/icon-192.png", Sizes: "192x192", Type: "image/png"},
			{Src: "/icons/icon-512.png", Sizes: "512x512", Type: "image/png"},
			{Src: "/icons/icon-512.png", Sizes: "512x512", Type: "image/png", Purpose: "maskable"},
		}}
	w.Header().Set("Content-Type", "application/manifest+json")
	// A renamed app shows its new name on the next check, not a day later.
	w.Header().Set("Cache-Control", "no-cache")
	_ = json.NewEncoder(w).Encode(m)
}

func (s *Server) installName(r *http.Request) (string, error) {
	app, err := s.contentAppSettings(r.Context())
	if err != nil {
		return "", err
	}
	name := cmp.Or(app.AppName, s.Config.AppName)
	if domain, ok := normalizeDomain(r.Host); ok {
		d, err := storage.DomainByName(r.Context(), s.DB, domain)
		switch {
		case err == nil:
			name = cmp.Or(d.AppName, name)
		case !errors.Is(err, storage.ErrNotFound):
			return "", err
		}
	}
	return name, nil
}
