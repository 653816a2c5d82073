package storage_test

import (
	"context"
	"fmt"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// A caller's ChatResults reused batch after batch gives the same results
// as arrays made afresh: a rerun attempt's arrays start zeroed, the
// per-conversation reruns of a failed batch do not share one array (each
// conversation keeps its own results), and Reset leaves no message held.
func TestChatResultsReused(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		var res storage.ChatResults
		x, y := single(21, 22), single(23, 24)
		x.Messages = []storage.ChatMessage{batchText(21, "x1", "a"), batchText(22, "x2", "b")}
		y.Messages = []storage.ChatMessage{batchText(23, "y1", "c")}
		out, err := storage.CommitChatBatchTo(ctx, db, 50, []storage.ChatAppend{x, y}, &res)
		if err != nil {
			t.Fatal(err)
		}
		if got := resultSeqs(out); got != "[[1 2] [1]]" {
			t.Fatalf("first batch seqs %s", got)
		}
		res.Reset()
		// A resend of x2 (a dup: the stored message), a new one, and a
		// conversation without its row, which fails the batch as a whole:
		// each conversation is then rerun alone.
		w := single(25, 26)
		w.Create, w.Members = false, nil
		w.Messages = []storage.ChatMessage{batchText(25, "w1", "lost")}
		x.Messages = []storage.ChatMessage{batchText(22, "x2", "b"), batchText(21, "x3", "d")}
		y.Messages = []storage.ChatMessage{batchText(24, "y2", "e")}
		out, err = storage.CommitChatBatchTo(ctx, db, 60, []storage.ChatAppend{x, w, y}, &res)
		if err != nil {
			t.Fatal(err)
		}
		if out[0].Err != nil || out[1].Err == nil || out[2].Err != nil {
			t.Fatalf("errors %v, %v, %v: want only the second", out[0].Err, out[1].Err, out[2].Err)
		}
		if got := resultSeqs(out); got != "[[2 3] [] [2]]" || fmt.Sprint(out[0].Dup) != "[true false]" {
			t.Fatalf("second batch seqs %s dups %v", got, out[0].Dup)
		}
		if out[0].Messages[0].ClientMsgID != "x2" || out[0].Messages[1].ClientMsgID != "x3" || out[2].Messages[0].ClientMsgID != "y2" {
			t.Fatalf("messages %+v / %+v", out[0].Messages, out[2].Messages)
		}
		res.Reset()
		// And the next batch in the same arrays.
		y.Messages = []storage.ChatMessage{batchText(23, "y3", "f")}
		out, err = storage.CommitChatBatchTo(ctx, db, 70, []storage.ChatAppend{y}, &res)
		if err != nil {
			t.Fatal(err)
		}
		if got := resultSeqs(out); got != "[[3]]" || out[0].Dup[0] {
			t.Fatalf("third batch seqs %s dups %v", got, out[0].Dup)
		}
	})
}

func resultSeqs(out []storage.ChatAppendResult) string {
	var all [][]int64
	for _, r := range out {
		s := []int64{}
		for _, m := range r.Messages {
			s = append(s, m.Seq)
		}
		all = append(all, s)
	}
	return fmt.Sprint(all)
}
