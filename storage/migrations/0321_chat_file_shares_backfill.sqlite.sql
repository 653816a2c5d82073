-- Attachments sent before shares were recorded: every conversation whose
-- messages name a file (pictures, voice, video, files, and those nested in
-- quotes and merges) shares it, so recipients keep seeing them. (SQLite
-- has no regular expressions; the embedded store is small.)
INSERT INTO chat_file_shares (file_id, conversation_id)
SELECT DISTINCT f.id, m.conversation_id
FROM chat_messages m JOIN chat_files f ON instr(m.content, '/files/' || f.path) > 0
WHERE m.content LIKE '%/files/chat/%'
ON CONFLICT (file_id, conversation_id) DO NOTHING;
