package chat

import "fmt"

// sendBurst sends n texts from c to recv (or to group) without waiting
// for a reply in between, the i-th reading format with c's nickname and
// i, then waits for every reply and reports a failed send as a test error
// (it may run on a goroutine of its own).
func (c *client) sendBurst(n int, recv, group, format string) {
	var ops []string
	for i := 0; i < n; i++ {
		m := newOutgoing(sender{idStr: c.u.id}, TypeText, 1)
		m.TextElem = &TextElem{Content: fmt.Sprintf(format, c.u.Nickname, i)}
		ops = append(ops, c.send("SendMessageNotOss", obj(m), recv, group, "", false))
	}
	for _, op := range ops {
		if r := c.waitReply(op); r.ErrCode != 0 {
			c.t.Errorf("send: %+v", r)
		}
	}
}

// historyPage asks for a page of history with call
// (GetAdvancedHistoryMessageList or GetAdvancedHistoryMessageListReverse)
// and params, and fails the test unless the page holds the texts want and
// is the last page or not as end says.
func (c *client) historyPage(call string, params map[string]any, want string, end bool) AdvancedMessages {
	c.t.Helper()
	var page AdvancedMessages
	c.ok(&page, call, obj(params))
	if got := fmt.Sprint(texts(page.MessageList)); got != want || page.IsEnd != end {
		c.t.Fatalf("%s %v: %s, end %v; want %s, end %v", call, params, got, page.IsEnd, want, end)
	}
	return page
}
