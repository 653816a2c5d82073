-- Web Push (package push). The node's VAPID key pair, made by the first
-- node that starts and shared by all (a push service ties a subscription
-- to the key it was made with, so it must never change under them): the
-- public key as the uncompressed P-256 point and the private scalar, both
-- base64url without padding.
CREATE TABLE push_vapid (
	id SMALLINT PRIMARY KEY,
	public_key TEXT NOT NULL,
	private_key TEXT NOT NULL,
	created_at BIGINT NOT NULL
);

-- One push subscription per device: a device is a sign-in session
-- (auth_sessions.id), so signing out ends its pushes. endpoint, p256dh and
-- auth are the browser's PushSubscription; preview 0 hides the text of
-- the message; lang is the language the notification texts are in.
CREATE TABLE push_subscriptions (
	id BIGINT PRIMARY KEY,
	user_id BIGINT NOT NULL,
	session_id BIGINT NOT NULL UNIQUE,
	endpoint TEXT NOT NULL UNIQUE,
	p256dh TEXT NOT NULL,
	auth TEXT NOT NULL,
	preview SMALLINT NOT NULL DEFAULT 1,
	lang TEXT NOT NULL DEFAULT '',
	created_at BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
