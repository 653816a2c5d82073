-- A phone bound with an SMS code sent to it is verified: only a verified
-- phone resets a password by SMS, and a verified phone belongs to one
-- account at a time. Phones bound before this (without a code, or not
-- known to have had one) start unverified.
ALTER TABLE users ADD COLUMN phone_verified SMALLINT NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX users_verified_phone ON users (phone) WHERE phone_verified = 1;
