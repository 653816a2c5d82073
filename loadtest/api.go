package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// API calls kj's HTTP API ({code, message, data} envelope) over a pool of
// keep-alive connections.
type API struct {
	Base   string // http://host:port
	Client *http.Client
}

// NewAPI returns a client keeping up to conns connections open. src, when
// set, is the loopback source address to dial from.
func NewAPI(base string, conns int, src string) *API {
	d := &net.Dialer{Timeout: 5 * time.Second}
	if src != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(src)}
	}
	tr := &http.Transport{
		DialContext:         d.DialContext,
		MaxIdleConns:        conns,
		MaxIdleConnsPerHost: conns,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	return &API{Base: base, Client: &http.Client{Transport: tr, Timeout: 15 * time.Second}}
}

// APIError is a reply whose code is not 0.
type APIError struct {
	Status  int
	Code    int
	Message string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("HTTP %d code %d: %s", e.Status, e.Code, e.Message)
}

// Call posts body (JSON; nil for none) to /api<path> with the token and
// decodes the reply's data into out (when not nil).
func (a *API) Call(ctx context.Context, path, token string, body any, out any) error {
	var rd io.Reader = http.NoBody
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, "POST", a.Base+"/api"+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Language", "en-US")
	if token != "" {
		req.Header.Set("token", token)
	}
	resp, err := a.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var env struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return fmt.Errorf("HTTP %d, not an envelope: %.200s", resp.StatusCode, b)
	}
	if env.Code != 0 || resp.StatusCode != 200 {
		return &APIError{Status: resp.StatusCode, Code: env.Code, Message: env.Message}
	}
	if out != nil {
		return json.Unmarshal(env.Data, out)
	}
	return nil
}

// Close drops the idle connections.
func (a *API) Close() { a.Client.CloseIdleConnections() }
