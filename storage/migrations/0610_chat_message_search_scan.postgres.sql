-- Every text message (most of a chat's messages) paid a third index entry
-- for chat_messages_text, which only let a message search skip the
-- pictures, files and notices of a conversation: the search walks the
-- conversation's seqs on the primary key and checks the content types and
-- the keyword on the rows it reads, as it does on SQLite. A send is the
-- hot path; a search is rare and reads one conversation at a time.
DROP INDEX IF EXISTS chat_messages_text;
