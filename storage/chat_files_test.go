package storage_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// TestAttachmentSharesAreBackfilled: attachments sent before shares were
// recorded stay visible to their conversations — the migrations find them
// in stored chat messages (also nested in quotes and merges) and in
// customer-service messages.
func TestAttachmentSharesAreBackfilled(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		pic := storage.ChatFile{ID: storage.NewID(), OwnerID: 1, Path: "chat/ab/abababababababababababababababab.png", ContentType: "image/png", Size: 1}
		old := storage.ChatFile{ID: storage.NewID(), OwnerID: 1, Path: "chat/1/7.png", ContentType: "image/png", Size: 1}
		unsent := storage.ChatFile{ID: storage.NewID(), OwnerID: 1, Path: "chat/cd/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.png", ContentType: "image/png", Size: 1}
		for _, f := range []storage.ChatFile{pic, old, unsent} {
			if err := storage.CreateChatFile(ctx, db, f); err != nil {
				t.Fatal(err)
			}
		}
		msg := func(conv string, seq int64, content string) {
			t.Helper()
			if _, err := db.Exec(ctx, `INSERT INTO chat_messages (conversation_id, seq, server_msg_id, client_msg_id, send_id,
				session_type, msg_from, content_type, content, create_time, send_time) VALUES ($1,$2,$3,$4,1,1,100,102,$5,1,1)`,
				conv, seq, conv+"s"+string(rune('0'+seq)), conv+"c"+string(rune('0'+seq)), content); err != nil {
				t.Fatal(err)
			}
		}
		msg("si_1_2", 1, `{"sourcePicture":{"url":"/files/`+pic.Path+`","width":4},"bigPicture":{"url":"/files/`+pic.Path+`?w=2"}}`)
		msg("sg_9", 1, `{"quoteMessage":{"pictureElem":{"sourcePicture":{"url":"http://kj.example/files/`+pic.Path+`"}}}}`)
		msg("si_1_3", 1, `{"sourceUrl":"/files/`+old.Path+`"}`)
		msg("si_1_4", 1, `{"content":"no files here"}`)
		if _, err := db.Exec(ctx, `INSERT INTO customer_messages (id, visitor_id, from_agent, content, created_at) VALUES ($1, 42, 0, $2, 1)`,
			storage.NewID(), "/files/"+pic.Path); err != nil {
			t.Fatal(err)
		}
		ms, err := storage.Migrations(db.Dialect())
		if err != nil {
			t.Fatal(err)
		}
		ran := 0
		for _, m := range ms {
			if strings.HasPrefix(m.Version, "0321_") || strings.HasPrefix(m.Version, "0525_") {
				if _, err := db.Exec(ctx, m.SQL); err != nil {
					t.Fatalf("%s: %v", m.Version, err)
				}
				ran++
			}
		}
		if ran != 2 {
			t.Fatalf("ran %d backfill migrations, want 2", ran)
		}
		for f, want := range map[*storage.ChatFile][]string{&pic: {"cs_42", "sg_9", "si_1_2"}, &old: {"si_1_3"}, &unsent: nil} {
			got, err := storage.ChatFileConversations(ctx, db, f.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s shared with %v, want %v", f.Path, got, want)
			}
		}
	})
}
