package httpapi

// The foundation's own route: the API's self-description. Each area adds
// its routes in its own file with registerArea.

import (
	_ "embed"
	"net/http"
)

//go:embed openapi.yaml
var openAPI []byte

// OpenAPI serves httpapi/openapi.yaml at /openapi.yaml.
func OpenAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/yaml; charset=utf-8")
	_, _ = w.Write(openAPI)
}
