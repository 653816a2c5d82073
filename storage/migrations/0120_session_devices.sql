-- The device a sign-in came from, as a short label made from its
-- User-Agent ("Chrome · Windows"), shown in the user's device list
-- (/devices). Sessions from before it have none (''). state 3: signed out
-- because the user signed in on more devices than KJ_LOGIN_MAX_DEVICES.
ALTER TABLE auth_sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';
