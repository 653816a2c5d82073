package storage_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// batchText is a text message of sender for a chat batch.
func batchText(sender int64, client, text string) storage.ChatMessage {
	return storage.ChatMessage{ServerMsgID: fmt.Sprint(storage.NewID()), ClientMsgID: client, SendID: sender,
		SessionType: storage.SessionSingle, MsgFrom: 100, ContentType: 101,
		Content: `{"content":"` + text + `"}`, CreateTime: 1, SendTime: 2}
}

func single(a, b int64) storage.ChatAppend {
	id := fmt.Sprintf("si_%d_%d", a, b)
	return storage.ChatAppend{
		Conversation: storage.ChatConversation{ID: id, SessionType: storage.SessionSingle, CreatedAt: 1},
		Create:       true,
		Members: []storage.ChatUserConvRow{{UserID: a, ConversationID: id, PeerID: b, CreatedAt: 1},
			{UserID: b, ConversationID: id, PeerID: a, CreatedAt: 1}},
	}
}

func TestChatBatchAcrossConversations(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		x, y := single(1, 2), single(3, 4)
		x.Messages = []storage.ChatMessage{batchText(1, "x1", "a"), batchText(2, "x2", "b"), batchText(1, "x3", "c")}
		y.Messages = []storage.ChatMessage{batchText(3, "y1", "d")}
		res, err := storage.CommitChatBatch(ctx, db, 50, []storage.ChatAppend{x, y})
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range [][]int64{{1, 2, 3}, {1}} {
			if res[i].Err != nil {
				t.Fatalf("append %d: %v", i, res[i].Err)
			}
			for j, seq := range want {
				if res[i].Messages[j].Seq != seq || res[i].Dup[j] {
					t.Fatalf("append %d message %d: seq %d dup %v, want %d", i, j, res[i].Messages[j].Seq, res[i].Dup[j], seq)
				}
			}
		}
		// The second batch: resends of x2 and y1 (stored: dups, nothing
		// written), the same new clientMsgID twice (one message), and a
		// new one; seqs continue gapless.
		x.Messages = []storage.ChatMessage{batchText(2, "x2", "b"), batchText(2, "x4", "e"), batchText(2, "x4", "e"), batchText(1, "x5", "f")}
		y.Messages = []storage.ChatMessage{batchText(3, "y1", "d")}
		res, err = storage.CommitChatBatch(ctx, db, 60, []storage.ChatAppend{x, y})
		if err != nil {
			t.Fatal(err)
		}
		got := []int64{res[0].Messages[0].Seq, res[0].Messages[1].Seq, res[0].Messages[2].Seq, res[0].Messages[3].Seq, res[1].Messages[0].Seq}
		if fmt.Sprint(got) != "[2 4 4 5 1]" || fmt.Sprint(res[0].Dup) != "[true false true false]" || !res[1].Dup[0] {
			t.Fatalf("seqs %v dups %v %v", got, res[0].Dup, res[1].Dup)
		}
		if res[0].Messages[0].ServerMsgID == "" || res[0].Messages[0].Content != `{"content":"b"}` {
			t.Fatalf("a dup answers with the stored message: %+v", res[0].Messages[0])
		}
		c, err := storage.ChatConversationByID(ctx, db, x.Conversation.ID)
		if err != nil || c.MaxSeq != 5 || c.LatestTime != 60 {
			t.Fatalf("conversation %+v %v", c, err)
		}
		// Read positions: each sender's own last message.
		for _, want := range []struct {
			user int64
			conv string
			seq  int64
		}{{1, x.Conversation.ID, 5}, {2, x.Conversation.ID, 4}, {3, y.Conversation.ID, 1}, {4, y.Conversation.ID, 0}} {
			uc, err := storage.ChatUserConversationByID(ctx, db, want.user, want.conv)
			if err != nil || uc.ReadSeq != want.seq {
				t.Fatalf("user %d read seq %d (%v), want %d", want.user, uc.ReadSeq, err, want.seq)
			}
		}
		page, _, err := storage.ChatMessagesPage(ctx, db, storage.ChatPage{UserID: 1, ConversationID: x.Conversation.ID, Limit: 10})
		if err != nil || len(page) != 5 {
			t.Fatalf("stored %d messages (%v), want 5", len(page), err)
		}
		for i, m := range page {
			if m.Seq != int64(i+1) {
				t.Fatalf("stored seqs not gapless: %d at %d", m.Seq, i)
			}
		}
	})
}

// A conversation whose rows the store refuses fails alone; the others of
// its batch commit.
func TestChatBatchFailureStaysWithItsConversation(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		refuse := `CREATE TRIGGER refuse_poison BEFORE INSERT ON chat_messages FOR EACH ROW
			WHEN (NEW.content = '{"content":"poison"}') EXECUTE FUNCTION refuse_poison()`
		if db.Dialect() == storage.Postgres {
			if _, err := db.Exec(ctx, `CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS
				$$ BEGIN RAISE EXCEPTION 'poison'; END $$`); err != nil {
				t.Fatal(err)
			}
		} else {
			refuse = `CREATE TRIGGER refuse_poison BEFORE INSERT ON chat_messages
				WHEN NEW.content = '{"content":"poison"}' BEGIN SELECT RAISE(ABORT, 'poison'); END`
		}
		if _, err := db.Exec(ctx, refuse); err != nil {
			t.Fatal(err)
		}
		x, y, z := single(1, 2), single(3, 4), single(5, 6)
		x.Messages = []storage.ChatMessage{batchText(1, "x1", "fine")}
		y.Messages = []storage.ChatMessage{batchText(3, "y1", "fine"), batchText(3, "y2", "poison")}
		z.Messages = []storage.ChatMessage{batchText(5, "z1", "fine")}
		res, err := storage.CommitChatBatch(ctx, db, 50, []storage.ChatAppend{x, y, z})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Err != nil || res[2].Err != nil || res[1].Err == nil {
			t.Fatalf("errors %v, %v, %v: want only the second", res[0].Err, res[1].Err, res[2].Err)
		}
		if res[0].Messages[0].Seq != 1 || res[2].Messages[0].Seq != 1 {
			t.Fatalf("seqs %d %d", res[0].Messages[0].Seq, res[2].Messages[0].Seq)
		}
		for _, conv := range []string{x.Conversation.ID, y.Conversation.ID, z.Conversation.ID} {
			c, err := storage.ChatConversationByID(ctx, db, conv)
			want := int64(1)
			if conv == y.Conversation.ID {
				want = 0
				if err == storage.ErrNotFound {
					continue
				}
			}
			if err != nil || c.MaxSeq != want {
				t.Fatalf("%s max seq %d (%v), want %d", conv, c.MaxSeq, err, want)
			}
		}
	})
}

// Writers committing concurrently into the same conversations (as nodes
// do) keep each conversation's seqs gapless and unique, and a clientMsgID
// sent by several of them is stored once.
func TestChatBatchConcurrentWritersKeepSeqsGapless(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		const writers, rounds = 4, 25
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range rounds {
					// Every writer touches both conversations, in opposite
					// orders, and shares one clientMsgID per round.
					x, y := single(1, 2), single(3, 4)
					x.Messages = []storage.ChatMessage{batchText(1, fmt.Sprintf("w%d-r%d", w, r), "a"), batchText(1, fmt.Sprintf("shared-%d", r), "s")}
					y.Messages = []storage.ChatMessage{batchText(3, fmt.Sprintf("w%d-r%d", w, r), "b")}
					batch := []storage.ChatAppend{x, y}
					if w%2 == 1 {
						batch = []storage.ChatAppend{y, x}
					}
					res, err := storage.CommitChatBatch(ctx, db, int64(r), batch)
					if err == nil {
						for _, a := range res {
							if a.Err != nil {
								err = a.Err
							}
						}
					}
					if err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		for conv, want := range map[string]int{"si_1_2": writers*rounds + rounds, "si_3_4": writers * rounds} {
			page, _, err := storage.ChatMessagesPage(ctx, db, storage.ChatPage{UserID: 1, ConversationID: conv, Limit: 1000})
			if conv == "si_3_4" {
				page, _, err = storage.ChatMessagesPage(ctx, db, storage.ChatPage{UserID: 3, ConversationID: conv, Limit: 1000})
			}
			if err != nil || len(page) != want {
				t.Fatalf("%s: %d messages (%v), want %d", conv, len(page), err, want)
			}
			for i, m := range page {
				if m.Seq != int64(i+1) {
					t.Fatalf("%s: seq %d at %d", conv, m.Seq, i)
				}
			}
			c, _ := storage.ChatConversationByID(ctx, db, conv)
			if c.MaxSeq != int64(want) {
				t.Fatalf("%s: max seq %d, want %d", conv, c.MaxSeq, want)
			}
		}
	})
}

// The same conversation named by two appends of one batch (a restarted
// actor's batch meeting its predecessor's) gets one run of seqs, in the
// order of the batch, and a clientMsgID in both is stored once.
func TestChatBatchSameConversationTwice(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		x1, x2 := single(1, 2), single(1, 2)
		x1.Messages = []storage.ChatMessage{batchText(1, "a", "a"), batchText(2, "b", "b")}
		x2.Messages = []storage.ChatMessage{batchText(1, "b", "b"), batchText(1, "c", "c")}
		res, err := storage.CommitChatBatch(ctx, db, 50, []storage.ChatAppend{x1, x2})
		if err != nil || res[0].Err != nil || res[1].Err != nil {
			t.Fatal(err, res)
		}
		got := fmt.Sprint(res[0].Messages[0].Seq, res[0].Messages[1].Seq, res[1].Messages[0].Seq, res[1].Messages[1].Seq)
		if got != "1 2 2 3" || !res[1].Dup[0] || res[0].Dup[1] {
			t.Fatalf("seqs %s, dups %v %v", got, res[0].Dup, res[1].Dup)
		}
		storedSeqs := storedCount(t, db, 1, x1.Conversation.ID)
		if storedSeqs != 3 {
			t.Fatalf("%d stored, want 3", storedSeqs)
		}
		uc, err := storage.ChatUserConversationByID(ctx, db, 1, x1.Conversation.ID)
		if err != nil || uc.ReadSeq != 3 {
			t.Fatalf("read seq %d (%v), want 3", uc.ReadSeq, err)
		}
	})
}

func storedCount(t *testing.T, db storage.DB, user int64, conv string) int {
	t.Helper()
	page, _, err := storage.ChatMessagesPage(context.Background(), db, storage.ChatPage{UserID: user, ConversationID: conv, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range page {
		if m.Seq != int64(i+1) {
			t.Fatalf("seq %d at %d", m.Seq, i)
		}
	}
	c, _ := storage.ChatConversationByID(context.Background(), db, conv)
	if c.MaxSeq != int64(len(page)) {
		t.Fatalf("max seq %d, %d stored", c.MaxSeq, len(page))
	}
	return len(page)
}

// A conversation whose row was never made (an append that did not ask to
// create it) fails alone and stores nothing: its messages never get a seq
// without the row that allocates them.
func TestChatBatchConversationWithoutRowFailsAlone(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		x, w := single(1, 2), single(7, 8)
		w.Create, w.Members = false, nil
		x.Messages = []storage.ChatMessage{batchText(1, "x1", "a"), batchText(2, "x2", "b")}
		w.Messages = []storage.ChatMessage{batchText(7, "w1", "lost?")}
		res, err := storage.CommitChatBatch(ctx, db, 50, []storage.ChatAppend{w, x})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Err == nil || res[1].Err != nil {
			t.Fatalf("errors %v, %v: want only the first", res[0].Err, res[1].Err)
		}
		if s := []int64{res[1].Messages[0].Seq, res[1].Messages[1].Seq}; s[0] != 1 || s[1] != 2 {
			t.Fatalf("seqs %v, want [1 2]", s)
		}
		var n int64
		if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM chat_messages WHERE conversation_id = $1`, w.Conversation.ID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Fatalf("%d messages stored without a conversation row", n)
		}
	})
}

// On PostgreSQL a batch's statements are one implicit transaction (no
// BEGIN or COMMIT of their own): when the messages' insert fails, the rows
// the batch created before it in the same round trip (a new conversation
// and its users' rows) are gone too, no connection is left inside a
// transaction, and the next batch commits.
func TestChatBatchFailedRoundTripWritesNothing(t *testing.T) {
	db := storagetest.Postgres(t)
	ctx := context.Background()
	for _, q := range []string{`CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS
			$$ BEGIN RAISE EXCEPTION 'poison'; END $$`,
		`CREATE TRIGGER refuse_poison BEFORE INSERT ON chat_messages FOR EACH ROW
			WHEN (NEW.content = '{"content":"poison"}') EXECUTE FUNCTION refuse_poison()`} {
		if _, err := db.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	x := single(11, 12)
	x.Messages = []storage.ChatMessage{batchText(11, "x1", "poison")}
	res, err := storage.CommitChatBatch(ctx, db, 50, []storage.ChatAppend{x})
	if err != nil || res[0].Err == nil {
		t.Fatalf("poisoned batch: %v, %+v", err, res)
	}
	if _, err := storage.ChatConversationByID(ctx, db, x.Conversation.ID); err != storage.ErrNotFound {
		t.Fatalf("the failed batch's conversation row: %v, want ErrNotFound", err)
	}
	var members int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM chat_user_conversations WHERE conversation_id = $1`,
		x.Conversation.ID).Scan(&members); err != nil || members != 0 {
		t.Fatalf("the failed batch's users' rows: %d (%v)", members, err)
	}
	for _, c := range db.(*storage.PG).Pool.AcquireAllIdle(ctx) {
		if st := c.Conn().PgConn().TxStatus(); st != 'I' {
			t.Fatalf("a pooled connection is in transaction state %q", st)
		}
		c.Release()
	}
	y := single(11, 12)
	y.Messages = []storage.ChatMessage{batchText(11, "x1", "fine"), batchText(11, "x2", "fine")}
	res, err = storage.CommitChatBatch(ctx, db, 51, []storage.ChatAppend{y})
	if err != nil || res[0].Err != nil || res[0].Messages[1].Seq != 2 {
		t.Fatalf("next batch: %v, %+v", err, res)
	}
}

// Once a conversation's rows exist, a batch is sent with its parameters
// encoded by the storage package itself (on PostgreSQL): every column
// comes back as written, seqs go on gapless, the senders' read positions
// move, a stored clientMsgID is answered as a dup (the insert's conflict
// reruns the batch with its dedupe read), and a value a column cannot hold
// fails its conversation alone.
func TestChatBatchSteadyStateWritesEveryColumn(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		x, y := single(1, 2), single(3, 4)
		x.Messages = []storage.ChatMessage{batchText(1, "x1", "a")}
		y.Messages = []storage.ChatMessage{batchText(3, "y1", "b")}
		if _, err := storage.CommitChatBatch(ctx, db, 50, []storage.ChatAppend{x, y}); err != nil {
			t.Fatal(err)
		}
		x.Create, x.Members, y.Create, y.Members = false, nil, false, nil
		full := storage.ChatMessage{ServerMsgID: "s-2", ClientMsgID: "x2", SendID: 2, RecvID: 1, GroupID: 77,
			SessionType: storage.SessionSingle, MsgFrom: 200, ContentType: 1_000_000,
			Content: `{"content":"grüß 你好 \"q\" \\ \u2028"}`, SenderNickname: "Zoë", SenderFaceURL: "https://x/y.png",
			SenderPlatformID: 5, CreateTime: -3, SendTime: 1 << 40, Ex: "ex"}
		empty := storage.ChatMessage{ServerMsgID: "s-3", ClientMsgID: "x3", SendID: 1, SessionType: storage.SessionSingle}
		x.Messages = []storage.ChatMessage{full, empty}
		y.Messages = []storage.ChatMessage{batchText(4, "y2", "c"), batchText(3, "y3", "d")}
		res, err := storage.CommitChatBatch(ctx, db, 60, []storage.ChatAppend{x, y})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Err != nil || res[1].Err != nil {
			t.Fatalf("errors %v, %v", res[0].Err, res[1].Err)
		}
		got := []int64{res[0].Messages[0].Seq, res[0].Messages[1].Seq, res[1].Messages[0].Seq, res[1].Messages[1].Seq}
		if fmt.Sprint(got) != "[2 3 2 3]" {
			t.Fatalf("seqs %v, want [2 3 2 3]", got)
		}
		stored, err := storage.ChatMessagesByClientIDs(ctx, db, x.Conversation.ID, []string{"x2", "x3"})
		if err != nil || len(stored) != 2 {
			t.Fatalf("stored %v (%v)", stored, err)
		}
		full.ConversationID, full.Seq = x.Conversation.ID, 2
		empty.ConversationID, empty.Seq = x.Conversation.ID, 3
		for _, m := range stored {
			want := full
			if m.ClientMsgID == "x3" {
				want = empty
			}
			if m != want {
				t.Fatalf("stored\n%+v\nwant\n%+v", m, want)
			}
		}
		for _, r := range []struct {
			user int64
			conv string
			want int64
		}{{1, x.Conversation.ID, 3}, {2, x.Conversation.ID, 2}, {3, y.Conversation.ID, 3}, {4, y.Conversation.ID, 2}} {
			uc, err := storage.ChatUserConversationByID(ctx, db, r.user, r.conv)
			if err != nil || uc.ReadSeq != r.want {
				t.Fatalf("user %d read seq %d (%v), want %d", r.user, uc.ReadSeq, err, r.want)
			}
		}
		// A resend of x2 beside a new message: the dup is the stored one.
		x.Messages = []storage.ChatMessage{batchText(2, "x2", "again"), batchText(1, "x4", "e")}
		res, err = storage.CommitChatBatch(ctx, db, 70, []storage.ChatAppend{x})
		if err != nil || res[0].Err != nil {
			t.Fatal(err, res[0].Err)
		}
		if !res[0].Dup[0] || res[0].Messages[0].Content != full.Content || res[0].Dup[1] || res[0].Messages[1].Seq != 4 {
			t.Fatalf("resend: dup %v %+v", res[0].Dup, res[0].Messages)
		}
		// A platform id no smallint holds fails its conversation, not y's.
		bad := batchText(1, "x5", "f")
		bad.SenderPlatformID = 1 << 20
		x.Messages, y.Messages = []storage.ChatMessage{bad}, []storage.ChatMessage{batchText(3, "y4", "g")}
		res, err = storage.CommitChatBatch(ctx, db, 80, []storage.ChatAppend{x, y})
		if err != nil {
			t.Fatal(err)
		}
		if db.Dialect() == storage.Postgres && res[0].Err == nil {
			t.Fatal("a platform id of 1<<20 was stored in a smallint")
		}
		if res[1].Err != nil || res[1].Messages[0].Seq != 4 {
			t.Fatalf("y: %v seq %d, want 4", res[1].Err, res[1].Messages[0].Seq)
		}
	})
}

// The steady chat batch statement is planned once per connection: every
// execution of it uses the generic plan, none plans it afresh (planning
// it for each batch was ~40 % of PostgreSQL's CPU per transaction).
func TestChatBatchStatementKeepsOneGenericPlan(t *testing.T) {
	pg := storagetest.Postgres(t).(*storage.PG)
	ctx := context.Background()
	x := single(1, 2)
	x.Messages = []storage.ChatMessage{batchText(1, "g0", "a")}
	if _, err := storage.CommitChatBatch(ctx, pg, 50, []storage.ChatAppend{x}); err != nil {
		t.Fatal(err)
	}
	x.Create, x.Members = false, nil
	const steady = 8 // more than the 5 custom plans PostgreSQL tries before it may choose
	for i := range steady {
		x.Messages = []storage.ChatMessage{batchText(1, fmt.Sprintf("g%d", i+1), "b")}
		res, err := storage.CommitChatBatch(ctx, pg, int64(60+i), []storage.ChatAppend{x})
		if err != nil || res[0].Err != nil {
			t.Fatal(err, res[0].Err)
		}
		if res[0].Messages[0].Seq != int64(i+2) {
			t.Fatalf("batch %d: seq %d, want %d", i, res[0].Messages[0].Seq, i+2)
		}
	}
	var generic, custom int64
	for _, pool := range pg.Pools() {
		for _, c := range pool.AcquireAllIdle(ctx) {
			var g, cu int64
			err := c.QueryRow(ctx, `SELECT coalesce(sum(generic_plans), 0), coalesce(sum(custom_plans), 0)
				FROM pg_prepared_statements WHERE name = 'kj_chat_append'`).Scan(&g, &cu)
			c.Release()
			if err != nil {
				t.Fatal(err)
			}
			generic, custom = generic+g, custom+cu
		}
	}
	if generic != steady || custom != 0 {
		t.Fatalf("the steady statement ran with %d generic and %d custom plans, want %d and 0", generic, custom, steady)
	}
}
