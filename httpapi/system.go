package httpapi

// The API's self-description. httpapi/openapi.yaml holds the document's
// head (info, security, shared schemas); each area keeps its paths in
// httpapi/openapi/<area>.yaml so areas never edit one shared file. The
// served /openapi.yaml is the head with every area's paths merged in.

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"sort"
	"sync"

	"gopkg.in/yaml.v3"
)

//go:embed openapi.yaml openapi/*.yaml
var openAPIFS embed.FS

var openAPIDoc = sync.OnceValues(buildOpenAPI)

// buildOpenAPI merges the area files' paths and schemas into the head.
func buildOpenAPI() ([]byte, error) {
	head, err := openAPIFS.ReadFile("openapi.yaml")
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := yaml.Unmarshal(head, &doc); err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	paths := map[string]any{}
	schemas := map[string]any{}
	if comps, ok := doc["components"].(map[string]any); ok {
		if s, ok := comps["schemas"].(map[string]any); ok {
			schemas = s
		}
	}
	files, _ := fs.Glob(openAPIFS, "openapi/*.yaml")
	sort.Strings(files)
	for _, f := range files {
		b, _ := openAPIFS.ReadFile(f)
		var part struct {
			Paths      map[string]any `yaml:"paths"`
			Components struct {
				Schemas map[string]any `yaml:"schemas"`
			} `yaml:"components"`
		}
		if err := yaml.Unmarshal(b, &part); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for k, v := range part.Paths {
			if _, dup := paths[k]; dup {
				return nil, fmt.Errorf("%s: path %s is described twice", f, k)
			}
			paths[k] = v
		}
		for k, v := range part.Components.Schemas {
			schemas[k] = v
		}
	}
	doc["paths"] = paths
	if comps, ok := doc["components"].(map[string]any); ok {
		comps["schemas"] = schemas
	}
	return yaml.Marshal(doc)
}

// OpenAPI serves the merged document at /openapi.yaml.
func OpenAPI(w http.ResponseWriter, _ *http.Request) {
	b, err := openAPIDoc()
	if err != nil {
		http.Error(w, "openapi document is broken", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
	_, _ = w.Write(b)
}
