package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"syscall"
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

// LeanAPI calls kj's HTTP API like API, with a client of our own over
// net.Conn instead of net/http's: the load generator's CPU per request is
// a figure of every HTTP workload, and net/http's client costs ~60 µs of
// it where the servers measured cost 30-200 µs. One request is in flight
// per connection (HTTP/1.1 keep-alive, no pipelining); a connection is
// taken from the idle pool or dialled, and given back once its answer is
// read. The request is written in one write from bytes built up front (or
// into the connection's reused buffer), the answer read through a bufio
// reader: the status line, Content-Length, Transfer-Encoding: chunked and
// Connection: close, the body. It sends no Accept-Encoding, so kj never
// gzips. A keep-alive connection the server closed while it sat idle is
// redialled once; any other error closes the connection.
type LeanAPI struct {
	host    string // the Host header
	addr    string // host:port to dial
	idle    chan *leanConn
	dialer  net.Dialer
	timeout time.Duration
	closed  chan struct{}
}

// NewLeanAPI returns a client of base (http://host:port) keeping up to
// conns connections open.
func NewLeanAPI(base string, conns int) (*LeanAPI, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("lean client: %q is not http://host:port", base)
	}
	addr := u.Host
	if u.Port() == "" {
		addr += ":80"
	}
	return &LeanAPI{host: u.Host, addr: addr, idle: make(chan *leanConn, max(1, conns)),
		dialer: net.Dialer{Timeout: 5 * time.Second}, timeout: 15 * time.Second, closed: make(chan struct{})}, nil
}

// Loop returns an epoll sender (HTTPLoop) to the same server with conns
// connections of its own, sending what next appends.
func (a *LeanAPI) Loop(conns int, next func(b []byte) []byte) *HTTPLoop {
	return &HTTPLoop{Addr: a.addr, Conns: conns, Next: next}
}

// AppendPost appends the request posting body to /api<path> with the
// token, as Prepare builds it.
func (a *LeanAPI) AppendPost(b []byte, path, token string, body []byte) []byte {
	return appendRequest(b, a.host, path, token, body)
}

// Request is a whole HTTP request, built once by Prepare and sent as is.
type Request []byte

// Prepare builds the request posting body (JSON, nil for none) to
// /api<path> with the token.
func (a *LeanAPI) Prepare(path, token string, body []byte) Request {
	return appendRequest(nil, a.host, path, token, body)
}

func appendRequest(b []byte, host, path, token string, body []byte) []byte {
	b = append(b, "POST /api"...)
	b = append(b, path...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, host...)
	b = append(b, "\r\nContent-Type: application/json\r\nAccept-Language: en-US\r\n"...)
	if token != "" {
		b = append(b, "token: "...)
		b = append(b, token...)
		b = append(b, "\r\n"...)
	}
	b = append(b, "Content-Length: "...)
	b = strconv.AppendInt(b, int64(len(body)), 10)
	b = append(b, "\r\n\r\n"...)
	return append(b, body...)
}

// Call is API.Call over the lean client.
func (a *LeanAPI) Call(ctx context.Context, path, token string, body any, out any) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return err
		}
	}
	return a.do(ctx, nil, path, token, payload, func(status int, b []byte) error { return decodeEnvelope(status, b, out) })
}

// Do sends a prepared request and decodes the reply's data into out (when
// not nil).
func (a *LeanAPI) Do(ctx context.Context, req Request, out any) error {
	return a.do(ctx, req, "", "", nil, func(status int, b []byte) error { return decodeEnvelope(status, b, out) })
}

// Body sends a prepared request and returns its status and a copy of the
// body, whatever they are.
func (a *LeanAPI) Body(ctx context.Context, req Request) (int, []byte, error) {
	var status int
	var out []byte
	err := a.do(ctx, req, "", "", nil, func(s int, b []byte) error {
		status, out = s, append([]byte(nil), b...)
		return nil
	})
	return status, out, err
}

// do runs one exchange: the prepared req, or one built from path, token
// and payload into the connection's buffer. read sees the answer while
// the connection is still held (the body lives in its buffer).
func (a *LeanAPI) do(ctx context.Context, req Request, path, token string, payload []byte, read func(int, []byte) error) error {
	for attempt := 0; ; attempt++ {
		c, err := a.get(ctx)
		if err != nil {
			return err
		}
		out := []byte(req)
		if out == nil {
			c.wbuf = appendRequest(c.wbuf[:0], a.host, path, token, payload)
			out = c.wbuf
		}
		status, body, keep, fresh, err := c.roundTrip(ctx, out, a.timeout)
		if err != nil {
			c.close()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// A kept-alive connection the server closed while idle fails
			// before any answer: send again, once, on a new one.
			if c.reused && fresh && attempt == 0 {
				continue
			}
			return err
		}
		err = read(status, body)
		if keep {
			a.put(c)
		} else {
			c.close()
		}
		return err
	}
}

func (a *LeanAPI) get(ctx context.Context) (*leanConn, error) {
	select {
	case c := <-a.idle:
		c.reused = true
		return c, nil
	default:
	}
	nc, err := a.dialer.DialContext(ctx, "tcp", a.addr)
	if err != nil {
		return nil, err
	}
	return &leanConn{c: nc, r: bufio.NewReaderSize(nc, 4096)}, nil
}

func (a *LeanAPI) put(c *leanConn) {
	select {
	case <-a.closed:
		c.close()
		return
	default:
	}
	select {
	case a.idle <- c:
	default:
		c.close()
	}
}

// Close closes the idle connections; connections in use close as their
// calls end.
func (a *LeanAPI) Close() {
	select {
	case <-a.closed:
		return
	default:
		close(a.closed)
	}
	for {
		select {
		case c := <-a.idle:
			c.close()
		default:
			return
		}
	}
}

// leanConn is one keep-alive connection, used by one call at a time.
type leanConn struct {
	c        net.Conn
	r        *bufio.Reader
	wbuf     []byte // the request being written, when built per call
	body     []byte // the last answer's body
	deadline time.Time
	reused   bool
	// The context of the calls, watched once per connection and context
	// (a run's calls share one): when it ends the connection's deadline
	// is moved to the past, so a call blocked on it returns.
	ctx  context.Context
	stop func() bool
}

var errBadAnswer = errors.New("lean client: malformed HTTP answer")

// roundTrip writes req and reads the answer: its status, body (in c.body),
// whether the connection may be kept, and, on error, whether it came
// before any byte of the answer (fresh: the request may be sent again on
// another connection).
func (c *leanConn) roundTrip(ctx context.Context, req []byte, timeout time.Duration) (status int, body []byte, keep, fresh bool, err error) {
	if ctx != c.ctx {
		if c.stop != nil {
			c.stop()
		}
		if c.ctx != nil && c.ctx.Err() != nil {
			c.deadline = time.Time{} // the ended context moved it to the past
		}
		c.ctx, c.stop = ctx, nil
		if ctx.Done() != nil {
			nc := c.c
			c.stop = context.AfterFunc(ctx, func() { _ = nc.SetDeadline(time.Unix(1, 0)) })
		}
	}
	// The deadline bounds a call at timeout; it is moved on only when
	// less than half of it is left, not per call (each move costs).
	if now := time.Now(); c.deadline.Sub(now) < timeout/2 {
		c.deadline = now.Add(timeout)
		if err := c.c.SetDeadline(c.deadline); err != nil {
			return 0, nil, false, true, err
		}
	}
	if _, err := c.c.Write(req); err != nil {
		return 0, nil, false, true, err
	}
	keep = true
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return 0, nil, false, len(line) == 0 && (err == io.EOF || errors.Is(err, syscall.ECONNRESET)), err
		}
		line = trimCRLF(line)
		if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
			return 0, nil, false, false, fmt.Errorf("%w: status line %q", errBadAnswer, line)
		}
		if line[7] == '0' {
			keep = false // HTTP/1.0: the server closes
		}
		status, err = strconv.Atoi(string(line[9:12]))
		if err != nil {
			return 0, nil, false, false, fmt.Errorf("%w: status line %q", errBadAnswer, line)
		}
		if status >= 100 && status < 200 && status != 101 {
			if err := c.skipHeaders(); err != nil {
				return 0, nil, false, false, err
			}
			continue // an interim answer: the real one follows
		}
		break
	}
	length, chunked := -1, false
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return 0, nil, false, false, err
		}
		line = trimCRLF(line)
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, nil, false, false, fmt.Errorf("%w: header %q", errBadAnswer, line)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			n, err := strconv.Atoi(string(value))
			if err != nil || n < 0 {
				return 0, nil, false, false, fmt.Errorf("%w: Content-Length %q", errBadAnswer, value)
			}
			length = n
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = containsFold(value, "chunked")
		case bytes.EqualFold(name, []byte("Connection")):
			if containsFold(value, "close") {
				keep = false
			}
		}
	}
	c.body = c.body[:0]
	switch {
	case status == 204 || status == 304:
	case chunked:
		if err := c.readChunked(); err != nil {
			return 0, nil, false, false, err
		}
	case length >= 0:
		if length > maxAnswer {
			return 0, nil, false, false, fmt.Errorf("%w: %d-byte body", errBadAnswer, length)
		}
		c.body = append(c.body, make([]byte, length)...)
		if _, err := io.ReadFull(c.r, c.body); err != nil {
			return 0, nil, false, false, err
		}
	default: // no length: the body runs to the end of the connection
		b, err := io.ReadAll(io.LimitReader(c.r, maxAnswer))
		if err != nil {
			return 0, nil, false, false, err
		}
		c.body, keep = append(c.body, b...), false
	}
	return status, c.body, keep, false, nil
}

// maxAnswer bounds the body of one answer.
const maxAnswer = 16 << 20

func (c *leanConn) skipHeaders() error {
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return err
		}
		if len(trimCRLF(line)) == 0 {
			return nil
		}
	}
}

// readChunked reads a chunked body into c.body (trailers are skipped).
func (c *leanConn) readChunked() error {
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return err
		}
		size, _, _ := bytes.Cut(trimCRLF(line), []byte(";"))
		n, err := strconv.ParseInt(string(bytes.TrimSpace(size)), 16, 64)
		if err != nil || n < 0 || int64(len(c.body))+n > maxAnswer {
			return fmt.Errorf("%w: chunk size %q", errBadAnswer, line)
		}
		if n == 0 {
			return c.skipHeaders()
		}
		from := len(c.body)
		c.body = append(c.body, make([]byte, n)...)
		if _, err := io.ReadFull(c.r, c.body[from:]); err != nil {
			return err
		}
		crlf, err := c.r.ReadSlice('\n')
		if err != nil {
			return err
		}
		if len(trimCRLF(crlf)) != 0 {
			return fmt.Errorf("%w: chunk not closed by CRLF", errBadAnswer)
		}
	}
}

func (c *leanConn) close() {
	if c.stop != nil {
		c.stop()
	}
	_ = c.c.Close()
}

func trimCRLF(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// containsFold says whether the comma-separated header value holds token,
// case-insensitively.
func containsFold(value []byte, token string) bool {
	for part := range bytes.SplitSeq(value, []byte(",")) {
		if bytes.EqualFold(bytes.TrimSpace(part), []byte(token)) {
			return true
		}
	}
	return false
}

// okEnvelope starts every successful answer of kj (and of the floor): the
// envelope's fields in their order, code 0.
var okEnvelope = []byte(`{"code":0,`)

// decodeEnvelope reads the {code, message, data} envelope as API.Call
// does; a success whose data is not wanted is known by its first bytes,
// without decoding it.
func decodeEnvelope(status int, b []byte, out any) error {
	if status == 200 && out == nil && bytes.HasPrefix(b, okEnvelope) {
		return nil
	}
	var env struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return fmt.Errorf("HTTP %d, not an envelope: %.200s", status, b)
	}
	if env.Code != 0 || status != 200 {
		return &APIError{Status: status, Code: env.Code, Message: env.Message}
	}
	if out != nil {
		return json.Unmarshal(env.Data, out)
	}
	return nil
}

// Post sends body (JSON bytes, nil for none) to /api<path> with the token,
// as Call does without encoding it.
func (a *LeanAPI) Post(ctx context.Context, path, token string, body []byte, out any) error {
	return a.do(ctx, nil, path, token, body, func(status int, b []byte) error { return decodeEnvelope(status, b, out) })
}
