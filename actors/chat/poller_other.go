//go:build !linux

package chat

// poller is the readiness-driven read side; without epoll every socket
// reads in a goroutine of its own (readBlocking).
type poller struct{}

func newPoller(*Engine, int) *poller { return &poller{} }

// watch starts reading s.
func (p *poller) watch(s *session) { go s.readBlocking() }

// forget is called as s is torn down.
func (p *poller) forget(*session) {}

func (p *poller) stop() {}
