-- Attachments sent before shares were recorded: every conversation whose
-- messages name a file (pictures, voice, video, files, and those nested in
-- quotes and merges) shares it, so recipients keep seeing them.
INSERT INTO chat_file_shares (file_id, conversation_id)
SELECT DISTINCT f.id, m.conversation_id
FROM chat_messages m
CROSS JOIN LATERAL regexp_matches(m.content, '/files/(chat/[^"?#\s\\]+)', 'g') AS p(groups)
JOIN chat_files f ON f.path = p.groups[1]
WHERE m.content LIKE '%/files/chat/%'
ON CONFLICT (file_id, conversation_id) DO NOTHING;
