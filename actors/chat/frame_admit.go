package chat

import "time"

// The one place where what a client sends is admitted or refused before
// it is decoded: the size of each message as its frame header announces
// it (before its bytes are buffered), and the socket's request rate as
// each message is handed on. Further limits on a socket's input belong
// here.

// admitSize refuses a message longer than Config.MaxFrame; the socket
// closes with 1009.
func (s *session) admitSize(size int64) error {
	if size > s.e.cfg.MaxFrame {
		return errTooBig
	}
	return nil
}

// allow takes a token from the socket's request bucket; a request over
// the rate is answered with an error instead of being run.
func (s *session) allow() bool {
	now := monoNow()
	tokens := float64(s.tokens) + time.Duration(now-s.last).Seconds()*s.e.cfg.RequestRate
	s.last = now
	s.tokens = float32(min(tokens, s.e.cfg.RequestBurst))
	if s.tokens < 1 {
		return false
	}
	s.tokens--
	return true
}

// monoBase makes monoNow monotonic: a duration since it, not a wall time.
var monoBase = time.Now()

// monoNow is a monotonic time in nanoseconds, for intervals kept in an
// int64 instead of a 24-byte time.Time.
func monoNow() int64 { return int64(time.Since(monoBase)) }
