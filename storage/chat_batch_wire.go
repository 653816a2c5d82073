package storage

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"unsafe"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The steady state of the chat batch on PostgreSQL (every conversation's
// rows exist: appendPG alone) skips pgx's argument encoding: the 20
// parameters are written here in PostgreSQL's binary format into one
// pooled buffer, and the statement, prepared once per connection, is sent
// on the connection's own pipeline (whose send buffer is the
// connection's). pgx's generic path boxed every array element into an
// interface, chose an encoder per column, and built each batch's wire
// message in a fresh buffer: ~4.5 KB and ~30 objects of garbage per
// message of W2's 2,000 msg/s step, half of the server's garbage and so
// of its collector's work. The statement and its implicit transaction are
// the same as runFastPG's pgx.Batch.

// appendPGName names appendPG's prepared statement on each connection.
const appendPGName = "kj_chat_append"

// appendPGParams is appendPG's parameter types in order: the 17 message
// columns (messageArraysPG), latest_time, the conversations and their
// counts. A prepared statement whose types differ
// (a changed schema) is not sent this way: the batch goes through pgx.
var appendPGParams = []uint32{
	pgtype.TextArrayOID, pgtype.Int8ArrayOID, pgtype.TextArrayOID, pgtype.TextArrayOID, pgtype.Int8ArrayOID,
	pgtype.Int8ArrayOID, pgtype.Int8ArrayOID, pgtype.Int2ArrayOID, pgtype.Int2ArrayOID, pgtype.Int4ArrayOID,
	pgtype.TextArrayOID, pgtype.TextArrayOID, pgtype.TextArrayOID, pgtype.Int2ArrayOID, pgtype.Int8ArrayOID,
	pgtype.Int8ArrayOID, pgtype.TextArrayOID,
	pgtype.Int8OID, pgtype.TextArrayOID, pgtype.Int8ArrayOID,
}

// binaryFormats asks for every parameter and result column in binary.
var binaryFormats = []int16{1}

// errWireUnfit: the batch has something the binary path does not write
// (new conversations, a prepared statement of other types); pgx writes it.
var errWireUnfit = errors.New("storage: chat batch not for the binary path")

// wireArgs is one batch's parameters: values point into buf. reserve
// and probe are the batch's frontend messages (see wireReserve), kept
// here to be pooled with it.
type wireArgs struct {
	buf     []byte
	ends    []int // end of each parameter in buf
	values  [][]byte
	reserve wireReserve
	probe   wireProbe
}

var wireArgsPool = sync.Pool{New: func() any { return &wireArgs{buf: make([]byte, 0, 16<<10)} }}

// maxPooledWire bounds the buffers wireArgsPool keeps (a batch of
// KJ_CHAT_BATCH long messages may be far larger than a usual one).
const maxPooledWire = 1 << 20

func (w *wireArgs) reset() {
	clear(w.values)
	w.buf, w.ends, w.values = w.buf[:0], w.ends[:0], w.values[:0]
	// A send buffer not reclaimed may still be the frontend's: forgotten.
	w.reserve, w.probe = wireReserve{}, wireProbe{}
}

// end closes the parameter written since the last.
func (w *wireArgs) end() { w.ends = append(w.ends, len(w.buf)) }

// finish slices the parameters out of buf (which no longer grows).
func (w *wireArgs) finish() [][]byte {
	start := 0
	for _, e := range w.ends {
		w.values = append(w.values, w.buf[start:e:e])
		start = e
	}
	return w.values
}

// arrayHeader writes a one-dimensional array's header (array_recv): n
// elements of type elem, no NULLs, lower bound 1. An empty array has no
// dimension.
func (w *wireArgs) arrayHeader(elem uint32, n int) {
	if n == 0 {
		w.buf = binary.BigEndian.AppendUint32(w.buf, 0)
		w.buf = binary.BigEndian.AppendUint32(w.buf, 0)
		w.buf = binary.BigEndian.AppendUint32(w.buf, elem)
		return
	}
	w.buf = binary.BigEndian.AppendUint32(w.buf, 1)
	w.buf = binary.BigEndian.AppendUint32(w.buf, 0)
	w.buf = binary.BigEndian.AppendUint32(w.buf, elem)
	w.buf = binary.BigEndian.AppendUint32(w.buf, uint32(n))
	w.buf = binary.BigEndian.AppendUint32(w.buf, 1)
}

// The columns' element writers: a length, then the value.

func (w *wireArgs) text(s string) {
	w.buf = binary.BigEndian.AppendUint32(w.buf, uint32(len(s)))
	w.buf = append(w.buf, s...)
}

func (w *wireArgs) int8(v int64) {
	w.buf = binary.BigEndian.AppendUint32(w.buf, 8)
	w.buf = binary.BigEndian.AppendUint64(w.buf, uint64(v))
}

func (w *wireArgs) int4(v int) error {
	if v < math.MinInt32 || v > math.MaxInt32 {
		return fmt.Errorf("storage: %d does not fit an integer column", v)
	}
	w.buf = binary.BigEndian.AppendUint32(w.buf, 4)
	w.buf = binary.BigEndian.AppendUint32(w.buf, uint32(int32(v)))
	return nil
}

func (w *wireArgs) int2(v int) error {
	if v < math.MinInt16 || v > math.MaxInt16 {
		return fmt.Errorf("storage: %d does not fit a smallint column", v)
	}
	w.buf = binary.BigEndian.AppendUint32(w.buf, 2)
	w.buf = binary.BigEndian.AppendUint16(w.buf, uint16(int16(v)))
	return nil
}

// textColumn, int8Column ... write one parameter: an array of the batch's
// rows' field.
func (w *wireArgs) textColumn(rows []ChatMessage, f func(*ChatMessage) string) {
	w.arrayHeader(pgtype.TextOID, len(rows))
	for i := range rows {
		w.text(f(&rows[i]))
	}
	w.end()
}

func (w *wireArgs) int8Column(rows []ChatMessage, f func(*ChatMessage) int64) {
	w.arrayHeader(pgtype.Int8OID, len(rows))
	for i := range rows {
		w.int8(f(&rows[i]))
	}
	w.end()
}

func (w *wireArgs) int2Column(rows []ChatMessage, f func(*ChatMessage) int) error {
	w.arrayHeader(pgtype.Int2OID, len(rows))
	for i := range rows {
		if err := w.int2(f(&rows[i])); err != nil {
			return err
		}
	}
	w.end()
	return nil
}

func (w *wireArgs) texts(v []string) {
	w.arrayHeader(pgtype.TextOID, len(v))
	for _, s := range v {
		w.text(s)
	}
	w.end()
}

func (w *wireArgs) int8s(v []int64) {
	w.arrayHeader(pgtype.Int8OID, len(v))
	for _, x := range v {
		w.int8(x)
	}
	w.end()
}

// appendArgs writes appendPG's parameters for a planned batch whose seqs
// are relative (assign with countsByID), in appendPGParams' order.
func (c *chatBatch) appendArgs(w *wireArgs, p batchPlan) error {
	rows := c.rows
	w.textColumn(rows, func(m *ChatMessage) string { return m.ConversationID })
	w.int8Column(rows, func(m *ChatMessage) int64 { return m.Seq })
	w.textColumn(rows, func(m *ChatMessage) string { return m.ServerMsgID })
	w.textColumn(rows, func(m *ChatMessage) string { return m.ClientMsgID })
	w.int8Column(rows, func(m *ChatMessage) int64 { return m.SendID })
	w.int8Column(rows, func(m *ChatMessage) int64 { return m.RecvID })
	w.int8Column(rows, func(m *ChatMessage) int64 { return m.GroupID })
	if err := w.int2Column(rows, func(m *ChatMessage) int { return m.SessionType }); err != nil {
		return err
	}
	if err := w.int2Column(rows, func(m *ChatMessage) int { return m.MsgFrom }); err != nil {
		return err
	}
	w.arrayHeader(pgtype.Int4OID, len(rows))
	for i := range rows {
		if err := w.int4(rows[i].ContentType); err != nil {
			return err
		}
	}
	w.end()
	w.textColumn(rows, func(m *ChatMessage) string { return m.Content })
	w.textColumn(rows, func(m *ChatMessage) string { return m.SenderNickname })
	w.textColumn(rows, func(m *ChatMessage) string { return m.SenderFaceURL })
	if err := w.int2Column(rows, func(m *ChatMessage) int { return m.SenderPlatformID }); err != nil {
		return err
	}
	w.int8Column(rows, func(m *ChatMessage) int64 { return m.CreateTime })
	w.int8Column(rows, func(m *ChatMessage) int64 { return m.SendTime })
	w.textColumn(rows, func(m *ChatMessage) string { return m.Ex })
	w.buf = binary.BigEndian.AppendUint64(w.buf, uint64(c.now))
	w.end()
	w.texts(p.ids)
	w.int8s(p.counts)
	return nil
}

// runWirePG is runFastPG's round trip with the parameters written here
// (see above) for a planned batch with relative seqs and no new
// conversation; errWireUnfit when the connection's statement does not
// take them, and nothing was sent.
func (c *chatBatch) runWirePG(ctx context.Context, pool *pgxpool.Pool, p batchPlan) error {
	if len(p.newIDs) > 0 || len(p.members) > 0 {
		return errWireUnfit
	}
	w := wireArgsPool.Get().(*wireArgs)
	defer func() {
		if cap(w.buf) <= maxPooledWire {
			w.reset()
			wireArgsPool.Put(w)
		}
	}()
	w.reset()
	if err := c.appendArgs(w, p); err != nil {
		return err
	}
	args := w.finish()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return pgErr(err)
	}
	defer conn.Release()
	sd, err := conn.Conn().Prepare(ctx, appendPGName, appendPG)
	if err != nil {
		return pgErr(err)
	}
	if !slices.Equal(sd.ParamOIDs, appendPGParams) || len(sd.Fields) != 2 {
		return errWireUnfit
	}
	pl := conn.Conn().PgConn().StartPipeline(ctx)
	front := conn.Conn().PgConn().Frontend()
	w.reserve = wireReserve{n: len(w.buf) + 4*len(args) + len(appendPGName) + 64}
	front.Send(&w.reserve)
	pl.SendQueryStatement(sd, args, binaryFormats, binaryFormats)
	bases, err := readWireBases(pl, c.bases, p.ids, c.at)
	if cerr := pl.Close(); err == nil {
		err = cerr
	}
	if err == nil && !conn.Conn().PgConn().IsClosed() {
		// Not after a failure: a connection pgconn closes sends its
		// Terminate from a goroutine of its own, through the frontend
		// and perhaps from its buffer, while this one carries on.
		w.reclaim(front)
	}
	if err != nil {
		return pgErr(err)
	}
	c.rebase(bases)
	return nil
}

// wireReserve is a frontend message of no bytes that makes room for n
// more in the connection's send buffer. pgproto3 gives the buffer back to
// 1 KB after each flush and the Bind then grew it by doubling, 2-3
// allocations of up to twice the batch per round trip (BenchmarkSendPath:
// ~1.5 KB a message); reserved first, it is one of the Bind's size. That
// one is a buffer of wireSendPool (buf), taken back once the round trip
// is over unless the frontend still holds it (reclaim): made afresh it
// was ~0.35 KB a message of BenchmarkSendPath.
type wireReserve struct {
	n   int
	buf *[]byte // the pooled buffer Encode gave the frontend, or nil
}

// wireSendPool keeps send buffers of the binary path (wireReserve).
var wireSendPool = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

func (r *wireReserve) Encode(dst []byte) ([]byte, error) {
	if cap(dst)-len(dst) >= r.n || r.buf != nil {
		return dst, nil
	}
	p := wireSendPool.Get().(*[]byte)
	if need := len(dst) + r.n; cap(*p) < need {
		*p = make([]byte, 0, need)
	}
	r.buf = p
	return append((*p)[:0], dst...), nil
}

func (*wireReserve) Decode([]byte) error {
	return errors.New("storage: wireReserve is only sent")
}

func (*wireReserve) Frontend() {}

// reclaim puts the send buffer w.reserve gave the frontend back in
// wireSendPool when the frontend no longer holds it. pgproto3 writes its
// buffer synchronously at each flush and then either keeps it (emptied,
// when it held at most 1 KB, or after a failure) or replaces it with a
// fresh one; nothing else keeps it. Which of the two happened is asked
// of the frontend itself: w.probe, a message of no bytes, is handed its
// current buffer. When the probe is not called (the frontend holds an
// encode error) the buffer is left to it. It says whether it pooled one.
// Only for a connection still open after a round trip that succeeded:
// then nothing but this goroutine uses the frontend (runWirePG).
func (w *wireArgs) reclaim(f *pgproto3.Frontend) bool {
	p := w.reserve.buf
	if p == nil {
		return false
	}
	w.reserve.buf = nil
	w.probe = wireProbe{buf: *p}
	f.Send(&w.probe)
	ok := w.probe.called && !w.probe.held
	w.probe = wireProbe{}
	if !ok || cap(*p) > maxPooledWire {
		return false
	}
	*p = (*p)[:0]
	wireSendPool.Put(p)
	return true
}

// wireProbe is a frontend message of no bytes that says whether the
// frontend's send buffer shares memory with buf (see reclaim).
type wireProbe struct {
	buf          []byte
	called, held bool
}

func (p *wireProbe) Encode(dst []byte) ([]byte, error) {
	p.called = true
	p.held = overlap(dst, p.buf)
	return dst, nil
}

func (*wireProbe) Decode([]byte) error {
	return errors.New("storage: wireProbe is only sent")
}

func (*wireProbe) Frontend() {}

// overlap says whether the arrays under a and b (to their capacity)
// share any byte.
func overlap(a, b []byte) bool {
	if cap(a) == 0 || cap(b) == 0 {
		return false
	}
	pa := uintptr(unsafe.Pointer(unsafe.SliceData(a[:cap(a)])))
	pb := uintptr(unsafe.Pointer(unsafe.SliceData(b[:cap(b)])))
	return pa < pb+uintptr(cap(b)) && pb < pa+uintptr(cap(a))
}

// readWireBases syncs the pipeline (the implicit transaction commits at
// the Sync) and reads appendPG's (id, base) rows and the Sync's result:
// an error at the commit comes with the latter. The rows are put in
// bases, which it returns, keyed by the batch's own strings: a row's id
// is looked up in at (the index of each of ids) instead of made a string
// afresh (~50 B a message of BenchmarkSendPath).
func readWireBases(pl *pgconn.Pipeline, bases map[string]int64, ids []string, at map[string]int) (map[string]int64, error) {
	if err := pl.Sync(); err != nil {
		return nil, err
	}
	res, err := pl.GetResults()
	if err != nil {
		return nil, err
	}
	rr, ok := res.(*pgconn.ResultReader)
	if !ok {
		return nil, fmt.Errorf("storage: chat batch: unexpected %T from the pipeline", res)
	}
	var bad error
	for rr.NextRow() {
		v := rr.Values()
		if len(v) != 2 || len(v[1]) != 8 {
			bad = errors.New("storage: chat batch: malformed base row")
			continue
		}
		id := ""
		if k, ok := at[string(v[0])]; ok && k < len(ids) && ids[k] == string(v[0]) {
			id = ids[k]
		} else {
			id = string(v[0]) // not one the batch wrote: kept as it came
		}
		bases[id] = int64(binary.BigEndian.Uint64(v[1]))
	}
	if _, err := rr.Close(); err != nil {
		return nil, err
	}
	if res, err = pl.GetResults(); err != nil {
		return nil, err
	}
	if _, ok := res.(*pgconn.PipelineSync); !ok {
		return nil, fmt.Errorf("storage: chat batch: unexpected %T instead of the sync", res)
	}
	return bases, bad
}
