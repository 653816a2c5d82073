-- Pictures sent to customer service before shares were recorded (the
-- message is the picture's path): the visitor and the agents keep seeing
-- them (chat_file_shares, 0320).
INSERT INTO chat_file_shares (file_id, conversation_id)
SELECT DISTINCT f.id, 'cs_' || CAST(c.visitor_id AS TEXT)
FROM customer_messages c JOIN chat_files f ON f.path = substr(c.content, 8)
WHERE c.content LIKE '/files/chat/%'
ON CONFLICT (file_id, conversation_id) DO NOTHING;
