package chat

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	dto "github.com/prometheus/client_model/go"

	"kj/internal/apierr"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

func TestResendWithTheSameClientMsgIDReturnsTheStoredMessage(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db, func(c *Config) { c.RequestRate, c.RequestBurst = 1000, 1000 })
		alice, bob := h.user("alice"), h.user("bob")
		a, b := h.connect(alice), h.connect(bob)
		var m Message
		a.ok(&m, "CreateTextMessage", "once only")
		first := decode[Message](t, a.sendRaw(&m, bob.id, "").Data)
		// Concurrent resends while nothing else happens, and later ones.
		ops := []string{}
		for i := 0; i < 5; i++ {
			ops = append(ops, a.send("SendMessageNotOss", obj(m), bob.id, "", obj(OfflinePush{}), false))
		}
		for _, op := range ops {
			r := a.waitReply(op)
			got := decode[Message](t, r.Data)
			if r.ErrCode != 0 || got.Seq != first.Seq || got.ServerMsgID != first.ServerMsgID {
				t.Fatalf("resend answered %+v, want seq %d", r, first.Seq)
			}
		}
		// From another device of the sender too (a different socket).
		a2 := h.connect(alice)
		if got := decode[Message](t, a2.sendRaw(&m, bob.id, "").Data); got.Seq != first.Seq {
			t.Fatalf("resend from another socket: seq %d", got.Seq)
		}
		// After the conversation actor retired (dedupe from the store).
		retire(t, h, singleConversationID(alice.id, bob.id))
		if got := decode[Message](t, a.sendRaw(&m, bob.id, "").Data); got.Seq != first.Seq {
			t.Fatalf("resend after the actor retired: seq %d", got.Seq)
		}
		next := a.text(bob.id, "", "next")
		if next.Seq != first.Seq+1 {
			t.Fatalf("next seq %d", next.Seq)
		}
		res := b.history(singleConversationID(alice.id, bob.id), 50)
		if got := texts(res.MessageList); fmt.Sprint(got) != "[once only next]" {
			t.Fatalf("stored %v", got)
		}
		// Bob was told once.
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "once only") })
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "next") })
		if b.hasPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "once only") }) {
			t.Fatal("a resend was pushed again")
		}
		// Older than the actor's memory of recent sends, with the actor
		// alive: the store's unique index answers it.
		for i := range recentMessages + 1 {
			a.text(bob.id, "", fmt.Sprintf("later %d", i))
		}
		if got := decode[Message](t, a.sendRaw(&m, bob.id, "").Data); got.Seq != first.Seq || got.ServerMsgID != first.ServerMsgID {
			t.Fatalf("resend older than %d sends: seq %d, first %d", recentMessages, got.Seq, first.Seq)
		}
		if n := len(b.history(singleConversationID(alice.id, bob.id), 100).MessageList); n != 2+recentMessages+1 {
			t.Fatalf("%d messages stored, want %d", n, 2+recentMessages+1)
		}
	})
}

// retire makes the actor of a 1:1 conversation stop as if idle.
func retire(t *testing.T, h *harness, convID string) {
	t.Helper()
	pid, ok := h.e.live.convs.get(convID)
	if !ok {
		t.Fatalf("no actor for %s", convID)
	}
	h.e.root.Send(pid, &actor.ReceiveTimeout{})
	waitGone(t, h, convID)
}

func waitGone(t *testing.T, h *harness, convID string) {
	t.Helper()
	testenv.Eventually(t, waitFor, func() bool { _, ok := h.e.live.convs.get(convID); return !ok }, "actor of %s did not retire", convID)
}

func TestGroupCommitBatchesAndOrdersConcurrentSends(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		owner := h.user("owner")
		o := h.connect(owner)
		var senders []*testUser
		for i := 0; i < 4; i++ {
			senders = append(senders, h.user(fmt.Sprintf("s%d", i)))
		}
		gid := o.group("busy", storage.GroupTypeGroup, nil, senders, verifyApply)
		conv := groupConversationID(mustID(t, gid))
		batchesBefore := histogramCount(t)
		var wg sync.WaitGroup
		for _, u := range senders {
			c := h.connect(u)
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.sendBurst(25, "", gid, "%s-%d")
			}()
		}
		wg.Wait()
		if n := histogramCount(t) - batchesBefore; n >= 100 || n == 0 {
			t.Fatalf("100 concurrent sends took %d transactions: no group commit", n)
		}
		// 100 messages, seqs 2..101 without gaps, each sender's in its order.
		var all []*Message
		var res AdvancedMessages
		o.ok(&res, "GetAdvancedHistoryMessageListReverse", obj(map[string]any{"conversationID": conv, "count": 200, "lastMinSeq": 1}))
		all = res.MessageList
		if len(all) != 100 || !res.IsEnd {
			t.Fatalf("%d messages, end %v", len(all), res.IsEnd)
		}
		last := map[string]int{}
		for i, m := range all {
			if m.Seq != int64(i+2) {
				t.Fatalf("message %d has seq %d", i, m.Seq)
			}
			var who string
			var n int
			fmt.Sscanf(strings.Replace(m.TextElem.Content, "-", " ", 1), "%s %d", &who, &n)
			if prev, ok := last[who]; ok && n != prev+1 {
				t.Fatalf("%s: %d after %d", who, n, prev)
			}
			last[who] = n
		}
		// The owner got all 100 pushed, in seq order.
		var seqs []int64
		for len(seqs) < 100 {
			m := decode[Message](t, o.waitPush("OnRecvNewMessage", nil).Data)
			if m.ContentType == TypeText {
				seqs = append(seqs, m.Seq)
			}
		}
		for i := 1; i < len(seqs); i++ {
			if seqs[i] != seqs[i-1]+1 {
				t.Fatalf("push order %v", seqs)
			}
		}
		if n := o.total(); n != 100 {
			t.Fatalf("owner's unread %d", n)
		}
	})
}

func TestReconnectResyncsFromTheLastSeqAndOfflineUsersCatchUp(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob := h.user("alice"), h.user("bob")
		a := h.connect(alice)
		conv := singleConversationID(alice.id, bob.id)
		// Bob is offline: messages wait in the store.
		for i := 1; i <= 3; i++ {
			a.text(bob.id, "", fmt.Sprintf("m%d", i))
		}
		b := h.connect(bob)
		list := b.conversations()
		if len(list) != 1 || list[0].UnreadCount != 3 || list[0].MaxSeq != 3 || !strings.Contains(list[0].LatestMsg, "m3") {
			t.Fatalf("offline user's list %+v", list)
		}
		if n := b.total(); n != 3 {
			t.Fatalf("offline user's total %d", n)
		}
		seen := b.history(conv, 2)
		if fmt.Sprint(texts(seen.MessageList)) != "[m2 m3]" || seen.IsEnd || seen.LastMinSeq != 2 {
			t.Fatalf("last page %+v", seen)
		}
		// The older page, and the one before a message.
		b.historyPage("GetAdvancedHistoryMessageList", map[string]any{"conversationID": conv, "count": 2, "lastMinSeq": seen.LastMinSeq}, "[m1]", true)
		b.historyPage("GetAdvancedHistoryMessageList", map[string]any{"conversationID": conv, "count": 5, "startClientMsgID": seen.MessageList[0].ClientMsgID}, "[m1]", true)
		// Bob drops; more messages; he comes back and asks for everything
		// after seq 3: no gap, no duplicate, in order.
		b.conn.Close()
		testenv.Eventually(t, waitFor, func() bool { _, on := h.e.live.users.get(bob.ID); return !on }, "bob still online")
		for i := 4; i <= 7; i++ {
			a.text(bob.id, "", fmt.Sprintf("m%d", i))
		}
		b = h.connect(bob)
		after := b.historyPage("GetAdvancedHistoryMessageListReverse", map[string]any{"conversationID": conv, "count": 3, "lastMinSeq": 3}, "[m4 m5 m6]", false)
		if after.LastMinSeq != 6 {
			t.Fatalf("catch-up page ends at %d, want 6", after.LastMinSeq)
		}
		// The last catch-up page, and everything after a message.
		b.historyPage("GetAdvancedHistoryMessageListReverse", map[string]any{"conversationID": conv, "count": 3, "lastMinSeq": after.LastMinSeq}, "[m7]", true)
		b.historyPage("GetAdvancedHistoryMessageListReverse", map[string]any{"conversationID": conv, "count": 10, "startClientMsgID": seen.MessageList[1].ClientMsgID}, "[m4 m5 m6 m7]", true)
	})
}

func TestRevokeTypingDraftPinDeleteAndSearch(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db, func(c *Config) { c.RevokeWindow = time.Minute })
		alice, bob, carol := h.user("alice"), h.user("bob"), h.user("carol")
		a, b, c := h.connect(alice), h.connect(bob), h.connect(carol)
		conv := singleConversationID(alice.id, bob.id)

		// Typing is relayed and never stored.
		a.ok(nil, "TypingStatusUpdate", bob.id, "typing...")
		typing := decode[Message](t, b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, `"contentType":113`) }).Data)
		if typing.TypingElem == nil || typing.TypingElem.MsgTips != "typing..." || typing.Seq != 0 {
			t.Fatalf("typing %+v", typing)
		}
		if list := b.conversations(); len(list) != 0 {
			t.Fatalf("typing created a conversation: %+v", list)
		}

		// Revoke: by the sender within the window, not by the peer, not late.
		m1 := a.text(bob.id, "", "oops")
		b.fails(apierr.CodeChatRevokeDenied, "RevokeMessage", conv, m1.ClientMsgID)
		a.ok(nil, "RevokeMessage", conv, m1.ClientMsgID)
		info := decode[RevokedInfo](t, b.waitPush("OnNewRecvMessageRevoked", nil).Data)
		if info.ClientMsgID != m1.ClientMsgID || info.RevokerID != alice.id || info.Seq != m1.Seq {
			t.Fatalf("revoked info %+v", info)
		}
		res := b.history(conv, 10)
		if len(res.MessageList) != 1 || res.MessageList[0].ContentType != NoticeRevoke || strings.Contains(res.MessageList[0].Content, "oops") {
			t.Fatalf("revoked message in history %+v", res.MessageList)
		}
		if n := b.total(); n != 0 {
			t.Fatalf("a revoked message still counts as unread: %d", n)
		}
		a.ok(nil, "RevokeMessage", conv, m1.ClientMsgID) // again: nothing to do
		m2 := a.text(bob.id, "", "too late")
		h.clock.Advance(61 * time.Second)
		a.fails(apierr.CodeChatRevokeTooLate, "RevokeMessage", conv, m2.ClientMsgID)
		a.fails(apierr.CodeChatMessageNotFound, "RevokeMessage", conv, "nosuchid")

		// Group: an admin revokes a member's message at any time, not the owner's.
		gid := c.group("g", storage.GroupTypeGroup, []*testUser{alice}, []*testUser{bob}, verifyApply)
		gconv := groupConversationID(mustID(t, gid))
		var bm, cm Message
		b.ok(&bm, "CreateTextMessage", "member says")
		bm = decode[Message](t, b.sendRaw(&bm, "", gid).Data)
		c.ok(&cm, "CreateTextMessage", "owner says")
		cm = decode[Message](t, c.sendRaw(&cm, "", gid).Data)
		h.clock.Advance(10 * time.Minute)
		a.ok(nil, "RevokeMessage", gconv, bm.ClientMsgID)
		c.waitPush("OnNewRecvMessageRevoked", func(d string) bool { return strings.Contains(d, bm.ClientMsgID) })
		a.fails(apierr.CodeChatRevokeDenied, "RevokeMessage", gconv, cm.ClientMsgID)
		late := decode[Message](t, b.sendGroup(gid, "member's late one").Data)
		h.clock.Advance(2 * time.Minute)
		b.fails(apierr.CodeChatRevokeTooLate, "RevokeMessage", gconv, late.ClientMsgID)
		c.ok(nil, "RevokeMessage", gconv, late.ClientMsgID) // the owner may

		// Drafts and pins are per user and survive in the list.
		a.ok(nil, "SetConversationDraft", conv, "unsent words")
		a.ok(nil, "PinConversation", conv, true)
		list := a.conversations()
		if list[0].ConversationID != conv || !list[0].IsPinned || list[0].DraftText != "unsent words" || list[0].DraftTextTime == 0 {
			t.Fatalf("draft and pin %+v", list[0])
		}
		if bl := b.conversations(); bl[len(bl)-1].IsPinned || bl[0].DraftText != "" {
			t.Fatalf("bob sees alice's pin or draft: %+v", bl)
		}
		a.ok(nil, "SetConversationDraft", conv, "")
		if list := a.conversations(); list[0].DraftText != "" {
			t.Fatalf("draft not cleared %+v", list[0])
		}

		// Search within a conversation by the text, not the JSON.
		a.text(bob.id, "", "the quick brown fox")
		var found SearchResult
		b.ok(&found, "SearchLocalMessages", obj(map[string]any{"conversationID": conv, "keywordList": []string{"BROWN"}}))
		if found.TotalCount != 1 || !strings.Contains(found.SearchResultItems[0].MessageList[0].TextElem.Content, "fox") {
			t.Fatalf("search %+v", found)
		}
		b.ok(&found, "SearchLocalMessages", obj(map[string]any{"conversationID": conv, "keywordList": []string{"content"}}))
		if found.TotalCount != 0 {
			t.Fatalf("matched a JSON key: %+v", found)
		}
		b.ok(&found, "FindMessageList", obj([]map[string]any{{"conversationID": conv, "clientMsgIDList": []string{m2.ClientMsgID}}}))
		if found.TotalCount != 1 {
			t.Fatalf("find %+v", found)
		}

		// Delete one message for me; delete the conversation for me.
		b.ok(nil, "DeleteMessage", conv, m2.ClientMsgID)
		if got := fmt.Sprint(texts(b.history(conv, 10).MessageList)); strings.Contains(got, "too late") {
			t.Fatalf("deleted message still shown to bob: %v", got)
		}
		if got := fmt.Sprint(texts(a.history(conv, 10).MessageList)); !strings.Contains(got, "too late") {
			t.Fatalf("alice lost bob's deletion: %v", got)
		}
		b.ok(nil, "DeleteConversationAndDeleteAllMsg", conv)
		for _, it := range b.conversations() {
			if it.ConversationID == conv {
				t.Fatalf("deleted conversation listed %+v", it)
			}
		}
		if res := b.history(conv, 10); len(res.MessageList) != 0 {
			t.Fatalf("history after delete %v", texts(res.MessageList))
		}
		a.text(bob.id, "", "new start")
		b.waitPush("OnNewConversation", func(d string) bool { return strings.Contains(d, conv) })
		if got := texts(b.history(conv, 10).MessageList); fmt.Sprint(got) != "[new start]" {
			t.Fatalf("after delete and a new message %v", got)
		}
		if n := b.total(); n != 1 {
			t.Fatalf("total %d", n)
		}
		// Hide all, then clear all.
		b.ok(nil, "HideAllConversation")
		if list := b.conversations(); len(list) != 0 {
			t.Fatalf("hidden %+v", list)
		}
		b.waitPush("OnTotalUnreadMessageCountChanged", func(d string) bool { return d == "0" })
	})
}

// upload sends a file to /api/chat/upload and returns the url.
func (h *harness) upload(t *testing.T, u *testUser, kind, name string, content []byte) (string, httpapiReply) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	if kind != "" {
		w.WriteField("kind", kind)
	}
	fw, _ := w.CreateFormFile("file", name)
	fw.Write(content)
	w.Close()
	req, _ := http.NewRequest("POST", h.srv.URL+"/api/chat/upload", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("token", u.tok.Token)
	req.Header.Set("Accept-Language", "en-US")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r httpapiReply
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("upload reply %q", b)
	}
	r.Status = resp.StatusCode
	var data struct {
		URL string `json:"url"`
	}
	json.Unmarshal(r.Data, &data)
	return data.URL, r
}

type httpapiReply struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	Status  int             `json:"-"`
}

// png is a minimal image the content sniffer recognises.
var png = append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 64)...)

func TestEveryMessageTypeIsBuiltValidatedAndSent(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t))
	alice, bob := h.user("alice"), h.user("bob")
	a, b := h.connect(alice), h.connect(bob)
	img, r := h.upload(t, alice, "image", "cat.png", png)
	// Attachment names are random (httpapi/chat.go), never the uploader's id.
	if r.Code != 0 || !strings.HasPrefix(img, "/files/chat/") || strings.Contains(img, alice.id) || !strings.HasSuffix(img, ".png") {
		t.Fatalf("upload %+v %s", r, img)
	}
	pdf, _ := h.upload(t, alice, "file", "doc.pdf", append([]byte("%PDF-1.4\n"), make([]byte, 32)...))
	mp4 := append([]byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"), make([]byte, 64)...)
	video, r := h.upload(t, alice, "video", "v.mp4", mp4)
	if r.Code != 0 {
		t.Fatalf("video upload %+v", r)
	}
	sound, r := h.upload(t, alice, "sound", "s.mp3", append([]byte("ID3\x03\x00"), make([]byte, 64)...))
	if r.Code != 0 {
		t.Fatalf("sound upload %+v", r)
	}
	// Wrong types and sizes are refused.
	if _, r := h.upload(t, alice, "image", "x.png", []byte("<html><script>alert(1)</script></html>")); r.Code != apierr.CodeChatUploadType {
		t.Fatalf("html as image: %+v", r)
	}
	if _, r := h.upload(t, alice, "file", "x.svg", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>`)); r.Code != apierr.CodeChatUploadType {
		t.Fatalf("svg: %+v", r)
	}
	if _, r := h.upload(t, alice, "image", "big.png", append(png, make([]byte, UploadMax)...)); r.Code != apierr.CodeChatUploadTooLarge || r.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("too large: %+v", r)
	}
	quoted := a.text(bob.id, "", "quote me")
	cases := []struct {
		call string
		args []any
		ct   int
		ok   func(m Message) bool
	}{
		{"CreateTextMessage", []any{"hi"}, TypeText, func(m Message) bool { return m.TextElem.Content == "hi" }},
		{"CreateTextAtMessage", []any{"@bob hi", obj([]string{bob.id}), nil, ""}, TypeAtText, func(m Message) bool { return m.AtTextElem.AtUserList[0] == bob.id }},
		{"CreateImageMessageByURL", []any{"/local/cat.png", obj(Picture{URL: img, Width: 10, Height: 10, Type: "png"}), obj(Picture{URL: img}), obj(Picture{URL: img + "?type=image&width=5&height=5"})}, TypePicture,
			func(m Message) bool { return m.PictureElem.SourcePicture.URL == img }},
		{"CreateSoundMessageByURL", []any{obj(SoundElem{SourceURL: sound, Duration: 3, DataSize: 69})}, TypeVoice, func(m Message) bool { return m.SoundElem.Duration == 3 }},
		{"CreateVideoMessageByURL", []any{obj(VideoElem{VideoURL: video, SnapshotURL: img, Duration: 5, VideoType: "mp4"})}, TypeVideo, func(m Message) bool { return m.VideoElem.VideoURL == video }},
		{"CreateFileMessageByURL", []any{obj(FileElem{SourceURL: "http://" + strings.TrimPrefix(h.srv.URL, "http://") + pdf, FileName: "doc.pdf", FileSize: 41})}, TypeFile, func(m Message) bool { return m.FileElem.FileName == "doc.pdf" }},
		{"CreateLocationMessage", []any{"home", 103.8, 1.35}, TypeLocation, func(m Message) bool { return m.LocationElem.Latitude == 1.35 }},
		{"CreateCustomMessage", []any{`{"k":1}`, "ext", "desc"}, TypeCustom, func(m Message) bool { return m.CustomElem.Data == `{"k":1}` }},
		{"CreateFaceMessage", []any{3, "smile"}, TypeFace, func(m Message) bool { return m.FaceElem.Index == 3 }},
		{"CreateCardMessage", []any{obj(CardElem{UserID: bob.id, Nickname: "forged"})}, TypeCard, func(m Message) bool { return m.CardElem.Nickname == "bob" }},
		{"CreateQuoteMessage", []any{"replying", obj(quoted)}, TypeQuote, func(m Message) bool { return m.QuoteElem.QuoteMessage.ClientMsgID == quoted.ClientMsgID }},
		{"CreateMergerMessage", []any{obj([]*Message{quoted}), "chat history", obj([]string{"alice: quote me"})}, TypeMerger, func(m Message) bool { return len(m.MergeElem.MultiMessage) == 1 }},
		{"CreateForwardMessage", []any{obj(quoted)}, TypeText, func(m Message) bool { return m.TextElem.Content == "quote me" && m.ClientMsgID != quoted.ClientMsgID }},
	}
	for _, tc := range cases {
		var m Message
		a.ok(&m, tc.call, tc.args...)
		if m.ContentType != tc.ct || m.Status != statusSending || m.ClientMsgID == "" || m.SendID != alice.id || m.CreateTime == 0 || !tc.ok(m) {
			t.Fatalf("%s built %+v", tc.call, m)
		}
		stored := decode[Message](t, a.sendRaw(&m, bob.id, "").Data)
		if stored.Seq == 0 || stored.Status != statusSent {
			t.Fatalf("%s stored %+v", tc.call, stored)
		}
		got := decode[Message](t, b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, m.ClientMsgID) }).Data)
		if got.ContentType != tc.ct || !tc.ok(got) {
			t.Fatalf("%s received %+v", tc.call, got)
		}
	}
	// A foreign host or an unknown file is no upload of ours.
	a.fails(apierr.CodeChatBadMediaURL, "CreateImageMessageByURL", "", obj(Picture{URL: "http://evil.example" + img}), nil, nil)
	a.fails(apierr.CodeChatBadMediaURL, "CreateSoundMessageByURL", obj(SoundElem{SourceURL: "/files/chat/" + alice.id + "/1.mp3", Duration: 1}))
	// The client cannot slip a second element or a forged sender past.
	var m Message
	a.ok(&m, "CreateTextMessage", "plain")
	m.PictureElem = &PictureElem{SourcePicture: &Picture{URL: "https://evil.example/x.png"}}
	m.SenderNickname, m.SendID = "admin", bob.id
	stored := decode[Message](t, a.sendRaw(&m, bob.id, "").Data)
	if stored.PictureElem != nil || stored.SenderNickname != "alice" || stored.SendID != alice.id {
		t.Fatalf("smuggled fields kept: %+v", stored)
	}
	// The uploaded file is there to serve.
	if _, err := storage.ChatFileByPath(context.Background(), h.db, strings.TrimPrefix(img, "/files/")); err != nil {
		t.Fatal(err)
	}
}

// histogramCount is the number of commit transactions of sends so far.
func histogramCount(t *testing.T) uint64 {
	t.Helper()
	var m dto.Metric
	if err := commitBatch.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetHistogram().GetSampleCount()
}
