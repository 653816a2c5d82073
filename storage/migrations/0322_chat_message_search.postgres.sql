-- Message search across a user's conversations matches LOWER(content) with
-- LIKE on the text-bearing messages only (text, @text, quote). This partial
-- index holds just those, so a search walks them per conversation instead
-- of every picture, file and notice; the keyword itself is checked on the
-- rows found (a substring match in any script, which a word index such as
-- tsvector cannot give for Chinese text without spaces).
CREATE INDEX chat_messages_text ON chat_messages (conversation_id, seq) WHERE content_type IN (101, 106, 114);
